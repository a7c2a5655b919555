import { parseConfig } from '@bank/platform';
import express from 'express';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import type { AppDeps } from '../../appDeps';
import { createBankRouter } from './bankRouter';

function appWith(env: Record<string, string>): express.Express {
  const app = express();
  app.use(createBankRouter({ config: parseConfig(env) } as unknown as AppDeps));
  return app;
}

describe('GET /bank', () => {
  it("answers the bank's identity with the configured routing number, to anyone", async () => {
    const response = await request(appWith({ BANK_ROUTING_NUMBER: '021000021' })).get('/bank').expect(200);
    expect(response.body).toEqual({
      data: {
        name: 'Summit Bank',
        routingNumber: '021000021',
        address: '1200 Summit Plaza, Denver, CO 80202, United States',
        phone: '+1 (800) 555-0142',
        email: 'care@summitbank.example',
      },
    });
  });

  it('answers the development default when BANK_ROUTING_NUMBER is unset', async () => {
    const response = await request(appWith({})).get('/bank').expect(200);
    expect(response.body.data.routingNumber).toBe('102000021');
  });
});
