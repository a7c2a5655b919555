import { Redis } from 'ioredis';

export function createRedis(url: string, options: { lazyConnect?: boolean; maxRetriesPerRequest?: number | null } = {}): Redis {
  return new Redis(url, { lazyConnect: options.lazyConnect ?? false, maxRetriesPerRequest: options.maxRetriesPerRequest ?? 3 });
}
