import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type SignedIn, type TestApp } from '../../testing/testApp';
import { beneficiaryShape } from './beneficiaryShape';

let t: TestApp;
let admin: SignedIn;
let customer: SignedIn;

beforeAll(async () => {
  t = await createTestApp('beneficiaries');
  admin = await t.staff('admin');
  customer = await t.customer({ firstName: 'Ada', lastName: 'Lovelace' });
});

afterAll(async () => {
  await t?.close();
});

describe('the beneficiary directory', () => {
  it("admin adds: 201 'Beneficiary added successfully'; everyone signed in (customer, admin) lists it", async () => {
    const res = await request(t.app).post('/api/beneficiaries').set(admin.auth).send({ name: 'City Power', accountNumber: '99887766554', bankName: 'Grid Bank' });
    expect(res.status).toBe(201);
    expect(res.body.message).toBe('Beneficiary added successfully');
    const added = beneficiaryShape.parse(res.body.data);
    expect(added).toMatchObject({ name: 'City Power', accountNumber: '99887766554', bankName: 'Grid Bank' });
    for (const caller of [customer, admin]) {
      const list = await request(t.app).get('/api/beneficiaries').set(caller.auth);
      expect(list.status).toBe(200);
      expect((list.body.data as unknown[]).map((entry) => beneficiaryShape.parse(entry))).toContainEqual(added);
    }
  });

  it("answers 422 'All fields are required' without name or number, 400 for a malformed number, 409 for a duplicate", async () => {
    const missing = await request(t.app).post('/api/beneficiaries').set(admin.auth).send({ name: 'No Number' });
    expect(missing.status).toBe(422);
    expect(missing.body).toEqual({ message: 'All fields are required' });
    const malformed = await request(t.app).post('/api/beneficiaries').set(admin.auth).send({ name: 'X', accountNumber: '12-34' });
    expect(malformed.status).toBe(400);
    expect(malformed.body.errors).toEqual([{ path: 'accountNumber', message: 'Account number must be 4 to 17 digits' }]);
    await request(t.app).post('/api/beneficiaries').set(admin.auth).send({ name: 'Water', accountNumber: '11112222' }).expect(201);
    const duplicate = await request(t.app).post('/api/beneficiaries').set(admin.auth).send({ name: 'Water again', accountNumber: '11112222' });
    expect(duplicate.status).toBe(409);
    expect(duplicate.body).toEqual({ message: 'Beneficiary already exists' });
  });

  it("admin deletes: gone from the list; an unknown id is 404 'Beneficiary not found'", async () => {
    const added = await request(t.app).post('/api/beneficiaries').set(admin.auth).send({ name: 'Temporary', accountNumber: '5550001' });
    const id = added.body.data._id as string;
    const res = await request(t.app).delete(`/api/beneficiaries/${id}`).set(admin.auth);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ message: 'Beneficiary deleted' });
    const list = await request(t.app).get('/api/beneficiaries').set(customer.auth);
    expect((list.body.data as { _id: string }[]).map((entry) => entry._id)).not.toContain(id);
    for (const unknown of [id, 'not-an-id']) {
      const again = await request(t.app).delete(`/api/beneficiaries/${unknown}`).set(admin.auth);
      expect(again.status).toBe(404);
      expect(again.body).toEqual({ message: 'Beneficiary not found' });
    }
  });
});

describe('GET /beneficiaries?accountNumber (the recipient look-up)', () => {
  it("finds this bank's own accounts by number, with the holder's name only", async () => {
    const res = await request(t.app).get('/api/beneficiaries').query({ accountNumber: customer.accountNumber }).set(admin.auth);
    expect(res.status).toBe(200);
    expect(res.body.data).toHaveLength(1);
    const [entry] = res.body.data as Record<string, unknown>[];
    expect(Object.keys(entry ?? {}).sort()).toEqual(['_id', 'accountNumber', 'name']);
    expect(entry).toMatchObject({ name: 'Ada Lovelace', accountNumber: customer.accountNumber });
    expect(entry?._id).not.toBe(customer.userId);
  });

  it('finds directory entries, and answers an empty list for an unknown number', async () => {
    await request(t.app).post('/api/beneficiaries').set(admin.auth).send({ name: 'Gas Co', accountNumber: '4444333322' }).expect(201);
    const found = await request(t.app).get('/api/beneficiaries').query({ accountNumber: '4444333322' }).set(customer.auth);
    expect((found.body.data as { name: string }[]).map((entry) => entry.name)).toEqual(['Gas Co']);
    const none = await request(t.app).get('/api/beneficiaries').query({ accountNumber: '1231231231' }).set(customer.auth);
    expect(none.body).toEqual({ data: [] });
  });

  it('answers 400 for a number that is not 4 to 17 digits', async () => {
    const res = await request(t.app).get('/api/beneficiaries').query({ accountNumber: 'abc' }).set(customer.auth);
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([{ path: 'accountNumber', message: 'Account number must be 4 to 17 digits' }]);
  });

  it('follows an account number moved by an admin at once, by the rule the transfer routes by (the reservation)', async () => {
    const moving = await t.customer({ firstName: 'Grace', lastName: 'Hopper' });
    // A number that differs from the old one in its first digit (a random number may already start with 7).
    const newNumber = (moving.accountNumber.startsWith('7') ? '8' : '7') + moving.accountNumber.slice(1);
    await request(t.app).put(`/api/user/admin/account/${moving.userId}`).set(admin.auth).send({ number: newNumber, savings: 0, checking: 0 }).expect(200);
    const found = await request(t.app).get('/api/beneficiaries').query({ accountNumber: newNumber }).set(customer.auth);
    expect((found.body.data as { name: string }[]).map((entry) => entry.name)).toEqual(['Grace Hopper']);
    const old = await request(t.app).get('/api/beneficiaries').query({ accountNumber: moving.accountNumber }).set(customer.auth);
    expect(old.body).toEqual({ data: [] });
  });

  it('does not find a closed customer', async () => {
    const leaving = await t.customer();
    await request(t.app).delete(`/api/user/admin/${leaving.userId}`).set(admin.auth).expect(200);
    const res = await request(t.app).get('/api/beneficiaries').query({ accountNumber: leaving.accountNumber }).set(customer.auth);
    expect(res.body.data).toEqual([]);
  });
});
