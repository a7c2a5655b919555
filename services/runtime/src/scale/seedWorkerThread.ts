/**
 * A worker thread of the bulk load (seedWorkers.ts): generates its blocks of customers with the first pass of
 * seedBank (createCustomerGenerator: the same plan, deciders, interest and hash chain as the loading thread would)
 * and hands each block's lines, by slot of the history (seedSpill.ts), to the loading thread, which spills them in
 * block order. It runs at most `credit` blocks ahead of what the loading thread has taken.
 */
import { parseKeyringText } from '@bank/platform';
import { parentPort, workerData } from 'node:worker_threads';
import { createCustomerGenerator } from './seedBank';
import { seedBlocks } from './seedBlocks';
import type { SlotLines } from './seedSpill';
import type { SeedWorkerData, SeedWorkerMessage } from './seedWorkers';

const data = workerData as SeedWorkerData;
const port = parentPort!;
let credit = 0;
let wake: (() => void) | undefined;
port.on('message', (message: { credit: number }) => {
  credit += message.credit;
  wake?.();
});

const post = (message: SeedWorkerMessage) => port.postMessage(message);
let block: SlotLines = new Map();
const generator = createCustomerGenerator({
  customers: data.customers,
  transactions: data.transactions,
  seed: data.seed,
  historyEnd: data.historyEnd,
  passwordHash: data.passwordHash,
  chainKeys: data.chainKey ? parseKeyringText('chain', 'CHAIN_KEYS', `${data.chainKey.id}:${data.chainKey.base64}`) : undefined,
  output: (lines) => {
    for (const [slot, text] of lines) block.set(slot, (block.get(slot) ?? '') + text);
  },
});

if (data.worker === 0) generator.admin();
const blocks = seedBlocks(data.customers, data.blockSize);
for (let b = data.worker; b < blocks.length; b += data.workers) {
  while (credit === 0) await new Promise<void>((resolve) => (wake = resolve));
  credit -= 1;
  const { start, end } = blocks[b]!;
  for (let i = start; i < end; i += 1) generator.customer(i);
  post({ kind: 'block', block: b, lines: block });
  block = new Map();
}
// The plan's totals (the same in every thread) and this thread's share: events, verifications, contact messages, interest.
post({ kind: 'done', result: generator.result() });
// Nothing more to take from the loading thread: let the thread end.
port.unref();
