/**
 * `npx tsx services/runtime/bench/seedGenerator.ts [--customers N] [--transactions N] [--seed N]`: the first pass of
 * seed:scale alone (createCustomerGenerator: the deciders, the interest of each customer, the canonical JSON, the
 * keyed hash chain, the spill lines), with no database and no file: the generator's CPU per event, the figure a
 * faster generator must move. Run it under `node --cpu-prof --import tsx` to see where the time goes
 * (summarizeProfile.ts). Prints one JSON line: events, seconds, CPU-seconds, events per CPU-second, the load average,
 * and a SHA-256 of every line generated (a change to the generator that changes a byte of the log changes it).
 */
import { createHash } from 'node:crypto';
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { parseKeyringText } from '@bank/platform';
import { createCustomerGenerator } from '../src/scale/seedBank';

const { values } = parseArgs({ options: { customers: { type: 'string' }, transactions: { type: 'string' }, seed: { type: 'string' } } });
const customers = Number(values.customers ?? 10_000);
const transactions = Number(values.transactions ?? customers * 10);
const seed = Number(values.seed ?? 42);
const chainKeys = parseKeyringText('chain', 'CHAIN_KEYS', `k1:${Buffer.alloc(32, 7).toString('base64')}`);

const digest = createHash('sha256');
let bytes = 0;
const started = performance.now();
const cpu = process.cpuUsage();
const generator = createCustomerGenerator({
  customers,
  transactions,
  seed,
  passwordHash: '$2a$10$abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJKLMNOPQ',
  chainKeys,
  output: (lines) => {
    for (const slot of [...lines.keys()].sort((a, b) => a - b)) {
      const text = lines.get(slot)!;
      digest.update(`${slot}\n${text}`);
      bytes += text.length;
    }
  },
});
generator.admin();
for (let index = 0; index < customers; index += 1) generator.customer(index);
const { events } = generator.result();
const used = process.cpuUsage(cpu);
const seconds = (performance.now() - started) / 1000;
const cpuSeconds = (used.user + used.system) / 1e6;
console.log(
  JSON.stringify({
    customers,
    transactions,
    events,
    seconds: Math.round(seconds * 10) / 10,
    cpuSeconds: Math.round(cpuSeconds * 10) / 10,
    eventsPerSecond: Math.round(events / seconds),
    eventsPerCpuSecond: Math.round(events / cpuSeconds),
    bytes,
    sha256: digest.digest('hex'),
    loadAverage: loadavg().map((value) => value.toFixed(2)).join(' '),
  }),
);
