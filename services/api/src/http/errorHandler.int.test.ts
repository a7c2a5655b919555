import { DomainError } from '@bank/domain';
import { WrongExpectedVersionError } from '@bank/eventstore';
import { createLogger } from '@bank/platform';
import express from 'express';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { errorHandler, mapError } from './errorHandler';
import { ConflictError, TooManyRequestsError } from './httpErrors';
import { requestId } from './requestId';

describe('mapError', () => {
  it('maps zod issues to 400 with their paths', () => {
    const parsed = z.object({ location: z.object({ state: z.string({ error: 'State is required' }) }) }).safeParse({ location: {} });
    expect(mapError(parsed.error, 'r')).toEqual({
      status: 400,
      body: { message: 'State is required', errors: [{ path: 'location.state', message: 'State is required' }] },
      headers: {},
    });
  });

  it('maps domain refusals by their code: 404, 409, otherwise 422 with the catalogue text', () => {
    expect(mapError(new DomainError('not_found', 'User not found'), 'r')).toMatchObject({ status: 404, body: { message: 'User not found' } });
    expect(mapError(new DomainError('email_taken'), 'r')).toMatchObject({ status: 409, body: { message: 'Email already registered' } });
    expect(mapError(new DomainError('insufficient_balance'), 'r')).toMatchObject({ status: 422, body: { message: 'You do not have enough balance' } });
  });

  it('maps a concurrency conflict that survived the retries to 409', () => {
    expect(mapError(new WrongExpectedVersionError('account-1', 3n, 4n), 'r').status).toBe(409);
  });

  it('keeps the headers of HTTP errors (Retry-After)', () => {
    expect(mapError(new TooManyRequestsError('Slow down', 12.2), 'r')).toEqual({ status: 429, body: { message: 'Slow down' }, headers: { 'Retry-After': '13' } });
    expect(mapError(new ConflictError('Taken'), 'r')).toMatchObject({ status: 409, body: { message: 'Taken' } });
  });
});

describe('errorHandler', () => {
  it('answers a fault with 500, a generic message and the request id: no stack, no SQL', async () => {
    const app = express();
    app.use(requestId());
    app.get('/boom', () => {
      throw Object.assign(new Error('relation "rm.secret" does not exist: SELECT password_hash FROM rm.secret'), { code: '42P01' });
    });
    app.use(errorHandler(createLogger('test', 'silent')));
    const res = await request(app).get('/boom').set('X-Request-Id', 'req-42');
    expect(res.status).toBe(500);
    expect(res.body).toEqual({ message: 'Something went wrong on our side, please try again later', requestId: 'req-42' });
    expect(res.text).not.toMatch(/SELECT|rm\.secret|at .*\.ts/);
  });

  it('answers 400, not 500, when a path parameter has a malformed %-escape (found by the fuzz test)', async () => {
    const app = express();
    app.get('/files/:id', (_req, res) => {
      res.json({});
    });
    app.use(errorHandler(createLogger('test', 'silent')));
    const res = await request(app).get('/files/%E0%A4%A');
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ message: 'The address is not valid (a malformed %-escape)' });
  });
});
