import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type SignedIn, type TestApp } from '../../testing/testApp';
import { contactShape } from './contactShape';

let t: TestApp;
let admin: SignedIn;

beforeAll(async () => {
  t = await createTestApp('contacts');
  admin = await t.staff('admin');
});

afterAll(async () => {
  await t?.close();
});

const message = (overrides: Record<string, unknown> = {}) => ({ name: 'Grace', email: 'Grace@Example.com', phone: '555', subject: 'Hello', message: 'A question', ...overrides });

describe('POST /contacts (public)', () => {
  it('records the message: 201 {message}; the admin lists it newest first', async () => {
    const res = await request(t.app).post('/api/contacts').send(message({ subject: 'First' }));
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ message: 'Thank you for your message, we will get back to you soon' });
    expect(res.headers['x-event-position']).toMatch(/^\d+$/);
    await request(t.app).post('/api/contacts').send(message({ subject: 'Second', phone: undefined })).expect(201);
    const list = await request(t.app).get('/api/contacts').set(admin.auth);
    expect(list.status).toBe(200);
    const contacts = (list.body.data as unknown[]).map((entry) => contactShape.parse(entry));
    expect(contacts.map((contact) => contact.subject)).toEqual(['Second', 'First']);
    expect(contacts[0]).toMatchObject({ name: 'Grace', email: 'grace@example.com', phone: '', message: 'A question' });
  });

  it('answers a bot (the hidden website field filled) with 201 and stores nothing', async () => {
    const before = await request(t.app).get('/api/contacts').set(admin.auth);
    const res = await request(t.app).post('/api/contacts').send(message({ website: 'http://spam.example', subject: 'Bot' }));
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ message: 'Thank you for your message, we will get back to you soon' });
    expect(res.headers['x-event-position']).toBeUndefined();
    const after = await request(t.app).get('/api/contacts').set(admin.auth);
    expect(after.body.data).toEqual(before.body.data);
  });

  it('answers 400 without name, e-mail or message', async () => {
    const res = await request(t.app).post('/api/contacts').send({ subject: 'x' });
    expect(res.status).toBe(400);
    expect((res.body.errors as { path: string }[]).map((issue) => issue.path)).toEqual(['name', 'email', 'message']);
  });
});

describe('DELETE /contacts/:id (admin)', () => {
  it("deletes: {message: 'Contact deleted'}; gone from the list; 404 for an unknown one", async () => {
    await request(t.app).post('/api/contacts').send(message({ subject: 'To delete' })).expect(201);
    const list = await request(t.app).get('/api/contacts').set(admin.auth);
    const id = (list.body.data as { _id: string; subject: string }[]).find((contact) => contact.subject === 'To delete')?._id;
    const res = await request(t.app).delete(`/api/contacts/${id}`).set(admin.auth);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ message: 'Contact deleted' });
    const after = await request(t.app).get('/api/contacts').set(admin.auth);
    expect((after.body.data as { _id: string }[]).map((contact) => contact._id)).not.toContain(id);
    const again = await request(t.app).delete(`/api/contacts/${id}`).set(admin.auth);
    expect(again.status).toBe(404);
    expect(again.body).toEqual({ message: 'Contact message not found' });
  });
});
