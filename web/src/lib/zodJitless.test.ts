import { describe, expect, it } from 'vitest';
import { makeZodJitless } from './zodJitless';

describe('makeZodJitless', () => {
  it('is what zod reads as its jitless setting', async () => {
    makeZodJitless();
    const { config } = await import('zod/v4/core');
    expect(config().jitless).toBe(true);
    const { signinInput } = await import('@bank/domain');
    expect(signinInput.safeParse({ email: 'ada@bank.test', password: 'x' }).success).toBe(true);
  });
});
