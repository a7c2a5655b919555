import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, PNG_BYTES, type SignedIn, type TestApp } from '../../testing/testApp';
import { withUploadLock } from './uploadLock';

let t: TestApp;
let admin: SignedIn;

beforeAll(async () => {
  t = await createTestApp('file_retention');
  admin = await t.staff('admin');
});

afterAll(async () => {
  await t?.close();
});

/** A distinct tiny PNG per label. */
const png = (label: string) => `data:image/png;base64,${Buffer.concat([PNG_BYTES, Buffer.from(label)]).toString('base64')}`;
const idOf = (url: string) => url.split('/').pop()!;

async function stored(fileId: string): Promise<boolean> {
  const { rowCount } = await t.deps.pool.query('SELECT 1 FROM files.files WHERE id = $1', [fileId]);
  return rowCount === 1;
}

describe('uploaded files that are no longer referenced', () => {
  it('a replaced profile picture is deleted: nobody can read it any more', async () => {
    const customer = await t.customer();
    const first = await request(t.app).patch('/api/user/profile-picture').set(customer.auth).send({ image: png('pic-one') }).expect(200);
    const old = first.body.data.profilePicture.url as string;
    const second = await request(t.app).patch('/api/user/profile-picture').set(customer.auth).send({ image: png('pic-two') }).expect(200);
    const current = second.body.data.profilePicture.url as string;
    expect(await stored(idOf(old))).toBe(false);
    expect((await request(t.app).get(old).set(customer.auth)).status).toBe(404);
    expect((await request(t.app).get(old).set(admin.auth)).status).toBe(404);
    expect((await request(t.app).get(current).set(customer.auth)).status).toBe(200);
    // Uploading the same picture again keeps it.
    await request(t.app).patch('/api/user/profile-picture').set(customer.auth).send({ image: png('pic-two') }).expect(200);
    expect(await stored(idOf(current))).toBe(true);
  });

  it('a resubmitted verification deletes the documents it replaces, and keeps any the current state still uses', async () => {
    const customer = await t.customer();
    const adult = { documentType: 'passport', dateOfBirth: '1990-05-17' };
    await request(t.app).patch('/api/user/profile-picture').set(customer.auth).send({ image: png('face') }).expect(200);
    const first = await request(t.app)
      .post('/api/user/verification')
      .set(customer.auth)
      .send({ ...adult, passport: png('face'), documentFront: png('front-1'), documentBack: png('back-1') })
      .expect(200);
    const firstDocs = first.body.data.verification as { documentFront: { url: string }; documentBack: { url: string } };
    const second = await request(t.app)
      .post('/api/user/verification')
      .set(customer.auth)
      .send({ ...adult, passport: png('passport-2'), documentFront: png('front-1') })
      .expect(200);
    const secondDocs = second.body.data.verification as { documentFront: { url: string }; documentBack: { url: string } };
    // front-1 is still the front (and, by the fallback, the back); back-1 is gone; the old passport is the profile picture.
    expect(secondDocs.documentFront.url).toBe(firstDocs.documentFront.url);
    expect(await stored(idOf(firstDocs.documentFront.url))).toBe(true);
    expect(await stored(idOf(firstDocs.documentBack.url))).toBe(false);
    expect((await request(t.app).get(second.body.data.profilePicture.url as string).set(customer.auth)).status).toBe(200);

    // The audit history still names every document submitted, by id and hash.
    const events = await t.store.readStream(`customer-${customer.userId}`);
    const submitted = events.filter((event) => event.type === 'VerificationSubmitted').map((event) => (event.data as { documentBack: { fileId: string; sha256: string } }).documentBack);
    expect(submitted[0]).toMatchObject({ fileId: idOf(firstDocs.documentBack.url), sha256: expect.stringMatching(/^[0-9a-f]{64}$/) });
  });

  it('a file another customer also uploaded stays theirs when one of them replaces it', async () => {
    const a = await t.customer();
    const b = await t.customer();
    const shared = png('shared-picture');
    const mine = await request(t.app).patch('/api/user/profile-picture').set(a.auth).send({ image: shared }).expect(200);
    await request(t.app).patch('/api/user/profile-picture').set(b.auth).send({ image: shared }).expect(200);
    const url = mine.body.data.profilePicture.url as string;
    await request(t.app).patch('/api/user/profile-picture').set(a.auth).send({ image: png('a-new-picture') }).expect(200);
    expect((await request(t.app).get(url).set(b.auth)).status).toBe(200);
    expect((await request(t.app).get(url).set(a.auth)).status).toBe(404);
    expect(await stored(idOf(url))).toBe(true);
  });

  it('one upload per customer at a time: a second one while the first is being recorded is 409, and changes nothing', async () => {
    const customer = await t.customer();
    const before = await t.store.readStream(`customer-${customer.userId}`);
    const res = await withUploadLock(t.deps, customer.userId, () => request(t.app).patch('/api/user/profile-picture').set(customer.auth).send({ image: png('racing') }));
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ message: 'Another upload of yours is still being processed, please try again' });
    expect(await t.store.readStream(`customer-${customer.userId}`)).toHaveLength(before.length);
    await request(t.app).patch('/api/user/profile-picture').set(customer.auth).send({ image: png('racing') }).expect(200);
  });
});
