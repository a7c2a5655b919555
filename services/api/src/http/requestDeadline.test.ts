import express from 'express';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { errorHandler } from './errorHandler';
import { requestDeadline } from './requestDeadline';
import { requestId } from './requestId';

const silent = { warn: () => undefined, error: () => undefined, info: () => undefined } as never;

function appWith(work: (res: express.Response) => Promise<void>, ms = 50) {
  const finished: string[] = [];
  const app = express();
  app.use(requestId());
  app.use(requestDeadline({ ms, logger: silent, skip: (req) => req.path.startsWith('/slow-ok') }));
  // As the idempotency middleware does: a json that answers only after an asynchronous step.
  app.use((_req, res, next) => {
    const send = res.json.bind(res);
    res.json = (body: unknown) => {
      void wait(5).then(() => send(body));
      return res;
    };
    next();
  });
  const handler = async (_req: express.Request, res: express.Response) => {
    await work(res);
    finished.push('done');
  };
  app.post('/work', handler);
  app.post('/slow-ok', handler);
  app.use(errorHandler(silent));
  return { app, finished };
}

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('requestDeadline', () => {
  it('answers 503 with Retry-After when the work is slower than the deadline, and drops its late answer', async () => {
    const { app, finished } = appWith(async (res) => {
      await wait(200);
      res.setHeader('X-Late', 'yes');
      res.status(201).json({ late: true });
    });
    const answer = await request(app).post('/work');
    expect(answer.status).toBe(503);
    expect(answer.headers['retry-after']).toBe('2');
    expect(answer.body.message).toMatch(/unavailable/);
    expect(answer.headers['x-late']).toBeUndefined();
    await wait(300);
    // The work went on to its end (not cancelled), and its answer touched nothing.
    expect(finished).toEqual(['done']);
  });

  it('drops a late failure too', async () => {
    const { app } = appWith(async () => {
      await wait(150);
      throw new Error('late');
    });
    expect((await request(app).post('/work')).status).toBe(503);
    await wait(250);
  });

  it('leaves a fast answer and a skipped route alone', async () => {
    const fast = appWith(async (res) => void res.status(201).json({ ok: true }));
    expect((await request(fast.app).post('/work')).status).toBe(201);
    const skipped = appWith(async (res) => {
      await wait(120);
      res.status(201).json({ ok: true });
    });
    expect((await request(skipped.app).post('/slow-ok')).status).toBe(201);
  });
});
