import { parseKeyringText } from '@bank/platform';
import { seedBank } from './seedBank';
const chainKeys = parseKeyringText('chain', 'CHAIN_KEYS', `k1:${Buffer.alloc(32, 5).toString('base64')}`);
let n = 0; let bytes = 0;
const started = performance.now();
const r = await seedBank({ customers: 5000, transactions: 50000, seed: 42, store: undefined as never, passwordHash: '$2a$10$abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJKLMNOPQ', chainKeys, concurrency: 1,
  sink: { append: async (_s, evs) => { n += evs.length; if (process.env.JSON) for (const e of evs) bytes += JSON.stringify(e.data).length + JSON.stringify(e.metadata).length; return undefined; } } });
const s = (performance.now() - started) / 1000;
console.log(r.events, s.toFixed(1), 's', Math.round(n / s), 'ev/s', bytes);
