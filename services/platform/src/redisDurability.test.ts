import { describe, expect, it } from 'vitest';
import { redisDurabilityWarnings, warnAboutRedisDurability } from './redisDurability';

describe('redisDurabilityWarnings', () => {
  it('is quiet for AOF with noeviction', () => {
    expect(redisDurabilityWarnings({ appendonly: 'yes', 'maxmemory-policy': 'noeviction' })).toEqual([]);
  });

  it('warns about each setting that differs, naming its value', () => {
    const warnings = redisDurabilityWarnings({ appendonly: 'no', 'maxmemory-policy': 'allkeys-lru' });
    expect(warnings).toHaveLength(2);
    expect(warnings[0]).toMatch(/appendonly no/);
    expect(warnings[1]).toMatch(/maxmemory-policy allkeys-lru/);
  });
});

describe('warnAboutRedisDurability', () => {
  it('reads the settings with CONFIG GET and logs what differs', async () => {
    const logged: string[] = [];
    const redis = { config: async (_: 'GET', name: string) => [name, name === 'appendonly' ? 'yes' : 'volatile-lru'] };
    await warnAboutRedisDurability(redis, { warn: (message: unknown) => void logged.push(String(message)) } as never);
    expect(logged).toEqual([expect.stringMatching(/maxmemory-policy volatile-lru/)]);
  });

  it('says so when CONFIG is refused (a managed Redis)', async () => {
    const logged: unknown[] = [];
    const redis = { config: async () => Promise.reject(new Error("ERR unknown command 'CONFIG'")) };
    await warnAboutRedisDurability(redis, { warn: (...args: unknown[]) => void logged.push(args.at(-1)) } as never);
    expect(logged).toEqual([expect.stringMatching(/Could not read the Redis settings/)]);
  });
});
