/**
 * A worker thread of the bulk load (seedWorkers.ts): generates its blocks of customers with seedBank — the same
 * plan, deciders and hash chain as the loading thread would — and hands each block, encoded for COPY
 * (encodeStream), to the loading thread, which gives the global positions and writes them in block order. It runs
 * at most `credit` blocks ahead of what the loading thread has taken.
 */
import { parseKeyringText } from '@bank/platform';
import { parentPort, workerData } from 'node:worker_threads';
import { emptyEncodedStreams, encodeStream, type EncodedStreams } from './bulkEventLoad';
import { seedBank } from './seedBank';
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
let block: EncodedStreams = emptyEncodedStreams(data.withHeads);

/** The customers of this thread's blocks, in order; between two blocks it hands the finished one over. */
async function* indexes(): AsyncGenerator<number> {
  for (let b = data.worker; b * data.blockSize < data.customers; b += data.workers) {
    while (credit === 0) await new Promise<void>((resolve) => (wake = resolve));
    credit -= 1;
    const end = Math.min(data.customers, (b + 1) * data.blockSize);
    for (let i = b * data.blockSize; i < end; i += 1) yield i;
    post({ kind: 'block', block: b, encoded: block });
    block = emptyEncodedStreams(data.withHeads);
  }
}

const result = await seedBank({
  customers: data.customers,
  transactions: data.transactions,
  seed: data.seed,
  passwordHash: data.passwordHash,
  chainKeys: data.chainKey ? parseKeyringText('chain', 'CHAIN_KEYS', `${data.chainKey.id}:${data.chainKey.base64}`) : undefined,
  store: undefined as never,
  admin: data.worker === 0,
  indexes: indexes(),
  sink: {
    append: async (stream, events) => {
      encodeStream(block, stream, events);
      return undefined;
    },
  },
  onProgress: () => undefined,
});
// The plan's totals (the same in every thread) and this thread's share: events, verifications, contact messages.
post({ kind: 'done', result: { ...result, position: undefined } });
// Nothing more to take from the loading thread: let the thread end.
port.unref();
