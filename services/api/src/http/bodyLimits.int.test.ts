import http from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, PNG_BYTES, type SignedIn, type TestApp } from '../testing/testApp';
import { MAX_BODY_DEPTH } from './jsonBody';

let t: TestApp;
let customer: SignedIn;
let server: http.Server;

beforeAll(async () => {
  t = await createTestApp('body_limits');
  customer = await t.customer();
  server = t.app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
});

afterAll(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
  await t?.close();
});

/** A PNG data URL of about `size` bytes (the signature, then padding). */
function pngOfSize(size: number): string {
  const bytes = Buffer.alloc(size);
  PNG_BYTES.copy(bytes, 0, 0, 8);
  return `data:image/png;base64,${bytes.toString('base64')}`;
}

/** Sends only the headers of a request that announces `length` bytes, and returns the answer (the body is never sent). */
function announce(method: string, path: string, length: number, headers: Record<string, string> = {}): Promise<{ status: number; body: unknown }> {
  const { port } = server.address() as AddressInfo;
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, method, path, headers: { 'Content-Type': 'application/json', 'Content-Length': String(length), ...headers } });
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        req.destroy();
        resolve({ status: res.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown });
      });
    });
    req.on('error', reject);
    req.flushHeaders();
    req.write('{');
  });
}

async function contactCount(): Promise<number> {
  const { rows } = await t.deps.pool.query<{ n: string }>('SELECT count(*) AS n FROM rm.contacts');
  return Number(rows[0]?.n);
}

describe('request body limits', () => {
  it('refuses a JSON body over 100 kB on an ordinary route with 413 in the error shape, and stores nothing', async () => {
    const before = await contactCount();
    const res = await request(t.app).post('/api/contacts').send({ name: 'Big', email: 'big@example.com', message: 'x'.repeat(110 * 1024) });
    expect(res.status).toBe(413);
    expect(res.body).toEqual({ message: 'Request body is too large' });
    await t.settle();
    expect(await contactCount()).toBe(before);
    // Just under the limit is parsed (and then judged by the route).
    const under = await request(t.app).post('/api/contacts').send({ name: 'Under', email: 'under@example.com', message: 'x'.repeat(90 * 1024) });
    expect(under.status).not.toBe(413);
  });

  it('does not read an upload body before authentication: anonymous and auditors are refused whatever they send', async () => {
    const malformed = `{"passport": "${'A'.repeat(2 * 1024 * 1024)}`; // 2 MB of broken JSON: parsing it would answer 400
    const anonymous = await request(t.app).post('/api/user/verification').set('Content-Type', 'application/json').send(malformed);
    expect(anonymous.status).toBe(401);
    const auditor = await t.staff('auditor');
    const refused = await request(t.app).patch('/api/user/profile-picture').set(auditor.auth).set('Content-Type', 'application/json').send(malformed);
    expect(refused.status).toBe(403);
    // The same body from a customer is parsed (and is malformed).
    const parsed = await request(t.app).patch('/api/user/profile-picture').set(customer.auth).set('Content-Type', 'application/json').send(malformed);
    expect(parsed.status).toBe(400);
    expect(parsed.body).toEqual({ message: 'Request body is not valid JSON' });
  });

  it('takes bodies of several MB on the upload routes from a signed-in customer', async () => {
    const image = pngOfSize(3 * 1024 * 1024);
    const picture = await request(t.app).patch('/api/user/profile-picture').set(customer.auth).send({ image });
    expect(picture.status).toBe(200);
    const verification = await request(t.app)
      .post('/api/user/verification')
      .set(customer.auth)
      .send({ documentType: 'passport', dateOfBirth: '1990-05-17', passport: image, documentFront: pngOfSize(2 * 1024 * 1024) });
    expect(verification.status).toBe(200);
  });

  it('answers 413 to an upload over 45 MB, and 401 before reading any of it without a token', async () => {
    const upload = await request(t.app)
      .patch('/api/user/profile-picture')
      .set(customer.auth)
      .send({ image: `data:image/png;base64,${'A'.repeat(46 * 1024 * 1024)}` });
    expect(upload.status).toBe(413);
    expect(upload.body).toEqual({ message: 'Request body is too large' });
    // Only the headers are sent: the answer comes without waiting for the 46 MB.
    expect(await announce('PATCH', '/api/user/profile-picture', 46 * 1024 * 1024)).toEqual({ status: 401, body: { message: 'Please sign in to continue' } });
  });

  it(`refuses bodies nested deeper than ${MAX_BODY_DEPTH} levels with 400 (no stack overflow, no 500)`, async () => {
    const deep = `${'['.repeat(50_000)}${']'.repeat(50_000)}`;
    const res = await request(t.app).post('/api/contacts').set('Idempotency-Key', 'deep-1').set('Content-Type', 'application/json').send(deep);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ message: 'Request body is nested too deeply' });
    let nested: unknown = 'leaf';
    for (let level = 0; level < MAX_BODY_DEPTH - 1; level += 1) nested = { a: nested };
    const fine = await request(t.app).post('/api/contacts').send({ name: 'N', email: 'n@example.com', message: 'm', extra: nested });
    expect(fine.status).toBe(201);
  });

  it('keeps idempotency on the upload routes, where the body is parsed after authentication', async () => {
    const first = await request(t.app).patch('/api/user/profile-picture').set(customer.auth).set('Idempotency-Key', 'pic-1').send({ image: pngOfSize(1000) });
    const again = await request(t.app).patch('/api/user/profile-picture').set(customer.auth).set('Idempotency-Key', 'pic-1').send({ image: pngOfSize(1000) });
    expect(first.status).toBe(200);
    expect(again.status).toBe(200);
    expect(again.headers['idempotent-replayed']).toBe('true');
    const other = await request(t.app).patch('/api/user/profile-picture').set(customer.auth).set('Idempotency-Key', 'pic-1').send({ image: pngOfSize(2000) });
    expect(other.status).toBe(422);
    const trailing = await request(t.app).patch('/api/user/profile-picture/').set(customer.auth).set('Idempotency-Key', 'pic-2').send({ image: pngOfSize(1000) });
    expect(trailing.status).toBe(200);
  });
});
