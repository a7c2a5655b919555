import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, GIF_BYTES, GIF_DATA_URL, PNG_BYTES, PNG_DATA_URL, TEST_PASSWORD, uniqueEmail, type TestApp } from '../../testing/testApp';
import { userShape } from './userShape';

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp('user_routes');
});

afterAll(async () => {
  await t?.close();
});

const MAX = 10 * 1024 * 1024;

/** A data URL of a PNG of exactly `size` decoded bytes (the PNG signature, then zeros). */
function pngOfSize(size: number): string {
  const bytes = Buffer.alloc(size);
  PNG_BYTES.copy(bytes, 0, 0, 8);
  return `data:image/png;base64,${bytes.toString('base64')}`;
}

const adult = { documentType: 'passport', dateOfBirth: '1990-05-17' };

describe('POST /user/verification', () => {
  it('stores the images, sets the status to pending, and the back falls back to the front', async () => {
    const customer = await t.customer();
    const res = await request(t.app).post('/api/user/verification').set(customer.auth).send({ ...adult, passport: GIF_DATA_URL, documentFront: PNG_DATA_URL });
    expect(res.status).toBe(200);
    expect(res.body.message).toBe('Verification submitted successfully');
    const user = userShape.parse(res.body.data);
    expect(user.verificationStatus).toBe('pending');
    expect(user.verification?.documentType).toBe('passport');
    expect(user.verification?.documentBack).toEqual(user.verification?.documentFront);
    const file = await request(t.app).get(user.verification!.documentFront.url).set(customer.auth);
    expect(file.status).toBe(200);
    expect(file.headers['content-type']).toBe('image/png');
    expect(Buffer.compare(file.body as Buffer, PNG_BYTES)).toBe(0);
    const me = await request(t.app).get('/api/user/me').set(customer.auth);
    expect(me.body.data.verificationStatus).toBe('pending');
  });

  it('records only the file id and hash in the event, never the bytes', async () => {
    const customer = await t.customer();
    await request(t.app).post('/api/user/verification').set(customer.auth).send({ ...adult, passport: PNG_DATA_URL, documentFront: PNG_DATA_URL }).expect(200);
    const events = await t.store.readStream(`customer-${customer.userId}`);
    const submitted = events.find((event) => event.type === 'VerificationSubmitted');
    expect(submitted?.data.passport).toEqual({ fileId: expect.any(String), sha256: expect.stringMatching(/^[0-9a-f]{64}$/) });
    expect(JSON.stringify(submitted?.data)).not.toContain(PNG_BYTES.toString('base64'));
  });

  it("answers 422 'All fields are required' without passport, front, type or date of birth", async () => {
    const customer = await t.customer();
    const full = { ...adult, passport: PNG_DATA_URL, documentFront: PNG_DATA_URL };
    for (const missing of ['passport', 'documentFront', 'documentType', 'dateOfBirth']) {
      const res = await request(t.app).post('/api/user/verification').set(customer.auth).send({ ...full, [missing]: '' });
      expect(res.status, missing).toBe(422);
      expect(res.body).toEqual({ message: 'All fields are required' });
    }
  });

  it("answers 422 'File size must be less than 10MB' above 10 × 1024 × 1024 decoded bytes, and accepts exactly that", async () => {
    const customer = await t.customer();
    const tooBig = await request(t.app).post('/api/user/verification').set(customer.auth).send({ ...adult, passport: PNG_DATA_URL, documentFront: pngOfSize(MAX + 1) });
    expect(tooBig.status).toBe(422);
    expect(tooBig.body).toEqual({ message: 'File size must be less than 10MB' });
    const exactly = await request(t.app).post('/api/user/verification').set(customer.auth).send({ ...adult, passport: PNG_DATA_URL, documentFront: pngOfSize(MAX) });
    expect(exactly.status).toBe(200);
  });

  it('answers 422 for a customer under 18', async () => {
    const customer = await t.customer();
    const year = new Date().getUTCFullYear() - 10;
    const res = await request(t.app).post('/api/user/verification').set(customer.auth).send({ ...adult, dateOfBirth: `${year}-01-01`, passport: PNG_DATA_URL, documentFront: PNG_DATA_URL });
    expect(res.status).toBe(422);
    expect(res.body).toEqual({ message: 'You must be at least 18 years old' });
  });

  it('answers 400 for a file that is not an image, by its bytes whatever the data URL claims, and stores nothing', async () => {
    const customer = await t.customer();
    const pdf = `data:image/png;base64,${Buffer.from('%PDF-1.7 not an image').toString('base64')}`;
    const res = await request(t.app).post('/api/user/verification').set(customer.auth).send({ ...adult, passport: PNG_DATA_URL, documentFront: pdf });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ message: 'File must be a PNG, JPEG, GIF or WebP image', errors: [{ path: 'documentFront', message: 'File must be a PNG, JPEG, GIF or WebP image' }] });
    const declared = await request(t.app).post('/api/user/verification').set(customer.auth).send({ ...adult, passport: 'data:text/html;base64,PGgxPg==', documentFront: PNG_DATA_URL });
    expect(declared.status).toBe(400);
    expect(declared.body.errors).toEqual([{ path: 'passport', message: 'Only PNG, JPEG, GIF and WebP images are allowed' }]);
    const { rows } = await t.deps.pool.query('SELECT 1 FROM files.file_access WHERE user_id = $1', [customer.userId]);
    expect(rows).toHaveLength(0);
  });
});

describe('PATCH /user/profile', () => {
  it('changes e-mail, phone, address and state; the new e-mail signs in, the old one is free again', async () => {
    const customer = await t.customer();
    const newEmail = uniqueEmail('moved');
    const res = await request(t.app)
      .patch('/api/user/profile')
      .set(customer.auth)
      .send({ firstName: 'Ada', lastName: 'Lovelace', email: newEmail, phoneNumber: '555-0111', address: '2 New St', state: 'CA' });
    expect(res.status).toBe(200);
    expect(res.body.message).toBe('Profile updated successfully');
    expect(userShape.parse(res.body.data)).toMatchObject({ email: newEmail, phone: '555-0111', location: { address: '2 New St', state: 'CA' } });
    await t.signIn(newEmail, TEST_PASSWORD);
    const reuse = await request(t.app)
      .post('/api/auth/signup')
      .send({ firstName: 'B', lastName: 'C', email: customer.email, phone: '1', password: TEST_PASSWORD, address: 'x', state: 'y' });
    expect(reuse.status).toBe(201);
  });

  it('answers 422 when a name changes (names are read-only)', async () => {
    const customer = await t.customer();
    const res = await request(t.app)
      .patch('/api/user/profile')
      .set(customer.auth)
      .send({ firstName: 'Someone', lastName: 'Lovelace', email: customer.email, phoneNumber: '1', address: 'x', state: 'y' });
    expect(res.status).toBe(422);
    expect(res.body).toEqual({ message: 'First name and last name cannot be changed' });
  });

  it("answers 422 'All fields are required' when an editable field is missing", async () => {
    const customer = await t.customer();
    const res = await request(t.app).patch('/api/user/profile').set(customer.auth).send({ email: customer.email, phoneNumber: '', address: 'x', state: 'y' });
    expect(res.status).toBe(422);
    expect(res.body).toEqual({ message: 'All fields are required' });
  });

  it("answers 409 'Email already registered' for another customer's e-mail and changes nothing", async () => {
    const a = await t.customer();
    const b = await t.customer();
    const res = await request(t.app).patch('/api/user/profile').set(a.auth).send({ email: b.email.toUpperCase(), phoneNumber: '2', address: 'x', state: 'y' });
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ message: 'Email already registered' });
    const me = await request(t.app).get('/api/user/me').set(a.auth);
    expect(me.body.data.email).toBe(a.email);
  });
});

describe('PATCH /user/profile-picture', () => {
  it('sets the picture: {message, data: user} with profilePicture.url', async () => {
    const customer = await t.customer();
    const res = await request(t.app).patch('/api/user/profile-picture').set(customer.auth).send({ image: GIF_DATA_URL });
    expect(res.status).toBe(200);
    const user = userShape.parse(res.body.data);
    expect(user.profilePicture?.url).toMatch(/^\/api\/files\//);
    const file = await request(t.app).get(user.profilePicture!.url).set(customer.auth);
    expect(file.headers['content-type']).toBe('image/gif');
    expect(Buffer.compare(file.body as Buffer, GIF_BYTES)).toBe(0);
  });

  it('refuses a missing image (400), a non-image (400) and one over 10 MB (422)', async () => {
    const customer = await t.customer();
    expect((await request(t.app).patch('/api/user/profile-picture').set(customer.auth).send({})).status).toBe(400);
    const svg = await request(t.app).patch('/api/user/profile-picture').set(customer.auth).send({ image: `data:image/png;base64,${Buffer.from('<svg/>').toString('base64')}` });
    expect(svg.status).toBe(400);
    const big = await request(t.app).patch('/api/user/profile-picture').set(customer.auth).send({ image: pngOfSize(MAX + 3) });
    expect(big.status).toBe(422);
    expect(big.body).toEqual({ message: 'File size must be less than 10MB' });
  });
});

describe('GET /files/:id', () => {
  it('serves a file to its uploader and to staff; to another customer the same 404 as for an unknown id', async () => {
    const owner = await t.customer();
    const other = await t.customer();
    const admin = await t.staff('admin');
    const auditor = await t.staff('auditor');
    const image = `data:image/png;base64,${Buffer.concat([PNG_BYTES, Buffer.from('owner-only')]).toString('base64')}`;
    const res = await request(t.app).patch('/api/user/profile-picture').set(owner.auth).send({ image });
    const url = res.body.data.profilePicture.url as string;
    expect((await request(t.app).get(url).set(owner.auth)).status).toBe(200);
    expect((await request(t.app).get(url).set(admin.auth)).status).toBe(200);
    expect((await request(t.app).get(url).set(auditor.auth)).status).toBe(200);
    const denied = await request(t.app).get(url).set(other.auth);
    expect(denied.status).toBe(404);
    expect(denied.body).toEqual({ message: 'File not found' });
    expect((await request(t.app).get(url)).status).toBe(401);
    const unknown = await request(t.app).get('/api/files/00000000-0000-4000-8000-000000000001').set(owner.auth);
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ message: 'File not found' });
    expect((await request(t.app).get('/api/files/not-a-uuid').set(owner.auth)).status).toBe(404);
  });

  it('stores the same bytes once, readable by each customer who uploaded them', async () => {
    const a = await t.customer();
    const b = await t.customer();
    const image = `data:image/png;base64,${Buffer.concat([PNG_BYTES, Buffer.from('shared')]).toString('base64')}`;
    const first = await request(t.app).patch('/api/user/profile-picture').set(a.auth).send({ image });
    const second = await request(t.app).patch('/api/user/profile-picture').set(b.auth).send({ image });
    expect(second.body.data.profilePicture).toEqual(first.body.data.profilePicture);
    expect((await request(t.app).get(second.body.data.profilePicture.url as string).set(b.auth)).status).toBe(200);
    const { rows } = await t.deps.pool.query<{ n: string }>("SELECT count(*) AS n FROM files.files WHERE id = $1", [
      (first.body.data.profilePicture.url as string).split('/').pop(),
    ]);
    expect(Number(rows[0]?.n)).toBe(1);
  });
});

describe('privacy between customers', () => {
  it("customer A cannot read customer B's user through any route", async () => {
    const a = await t.customer();
    const b = await t.customer();
    expect((await request(t.app).get(`/api/user/admin/${b.userId}`).set(a.auth)).status).toBe(403);
    expect((await request(t.app).get(`/api/user/admin/email/${encodeURIComponent(b.email)}`).set(a.auth)).status).toBe(403);
    const me = await request(t.app).get('/api/user/me').set(a.auth);
    expect(me.body.data._id).toBe(a.userId);
  });
});
