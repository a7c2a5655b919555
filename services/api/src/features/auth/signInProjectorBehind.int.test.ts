import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, TEST_PASSWORD, uniqueEmail, type TestApp } from '../../testing/testApp';

/**
 * Sign-in decides from the event store, so the read models being behind (here: the projector stopped) changes
 * nothing a person can see: they sign in right after signing up, use their session, and an old password stops
 * working the moment a change of password answers.
 */
let t: TestApp;

beforeAll(async () => {
  // A short wait for the read models: sign-up answers from the event store when they do not catch up.
  t = await createTestApp('sign_in_projector_behind', { consistencyTimeoutMs: 50 });
  await t.projector.stop();
});

afterAll(async () => {
  await t?.close();
});

/** POST /auth/signup of a new customer with `email` (201). */
async function signUp(email: string, firstName: string, lastName: string): Promise<void> {
  await request(t.app)
    .post('/api/auth/signup')
    .send({ firstName, lastName, email, phone: '555-0142', password: TEST_PASSWORD, address: '2 Dawn St', state: 'OR' })
    .expect(201);
}

async function usersProjected(email: string): Promise<number> {
  const { rows } = await t.deps.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM rm.users WHERE email_lower = lower($1)', [email]);
  return rows[0]!.n;
}

describe('signing in while the projector is behind', () => {
  it('signs in right after sign-up, reads the user and keeps the session, before the read models hold the user', async () => {
    const email = uniqueEmail('early');
    await signUp(email, 'Early', 'Bird');
    expect(await usersProjected(email)).toBe(0);

    const signedIn = await request(t.app).post('/api/auth/signin').send({ email: email.toUpperCase(), password: TEST_PASSWORD });
    expect(signedIn.status).toBe(200);
    expect(signedIn.body.user).toMatchObject({ email, firstName: 'Early', role: 'customer' });
    const auth = { Authorization: `Bearer ${signedIn.body.token as string}` };

    const me = await request(t.app).get('/api/user/me').set(auth).expect(200);
    expect(me.body.data).toMatchObject({ email, lastName: 'Bird', account: { savings: 0, checking: 0 } });
    await request(t.app).get('/api/auth/user').set(auth).expect(200);

    await request(t.app).post('/api/auth/signin').send({ email, password: 'not-the-password' }).expect(401);
    expect(await usersProjected(email)).toBe(0);
  });

  it('refuses the old password as soon as a change of password has answered', async () => {
    const email = uniqueEmail('changer');
    await signUp(email, 'Quick', 'Change');
    const signedIn = await request(t.app).post('/api/auth/signin').send({ email, password: TEST_PASSWORD }).expect(200);
    await request(t.app)
      .post('/api/auth/change-password')
      .set({ Authorization: `Bearer ${signedIn.body.token as string}` })
      .send({ oldPassword: TEST_PASSWORD, newPassword: 'a-new-secret-9' })
      .expect(200);

    const old = await request(t.app).post('/api/auth/signin').send({ email, password: TEST_PASSWORD });
    expect(old.status).toBe(401);
    expect(old.body.message).toBe('Invalid email or password');
    await request(t.app).post('/api/auth/signin').send({ email, password: 'a-new-secret-9' }).expect(200);
  });

  it('answers the same 401 for an e-mail nobody holds', async () => {
    const res = await request(t.app).post('/api/auth/signin').send({ email: uniqueEmail('nobody'), password: TEST_PASSWORD });
    expect(res.status).toBe(401);
    expect(res.body.message).toBe('Invalid email or password');
  });
});
