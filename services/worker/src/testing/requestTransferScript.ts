/**
 * The API's transfer request as a process of its own, for the crash tests: runs requestTransfer once with the
 * request in TRANSFER_REQUEST (JSON: {userId, input, idempotencyKey?}) against DATABASE_URL / REDIS_URL /
 * REDIS_PREFIX, with WORKER_FAULT's api-* points, then prints `REQUESTED <transferId>` and exits.
 * Pins compare as `hash === "hash:" + pin` (test fixtures).
 */
import { Redis } from 'ioredis';
import { transferInput } from '@bank/domain';
import { createEventStore } from '@bank/eventstore';
import { createLogger, createPool } from '@bank/platform';
import { faultHookFromSpec } from '../faults';
import { createTransferQueues, ensureTransferJob } from '../queues';
import { requestTransfer } from '../transfers/requestTransfer';
import { parseWorkerConfig } from '../workerConfig';

const config = parseWorkerConfig(process.env);
const command = JSON.parse(process.env.TRANSFER_REQUEST ?? '{}') as { userId: string; input: unknown; idempotencyKey?: string };
const pool = createPool(config.DATABASE_URL, 4);
const store = await createEventStore(config, { pool });
const redis = new Redis(config.REDIS_URL, { maxRetriesPerRequest: null });
const queues = createTransferQueues({ connection: redis, prefix: config.REDIS_PREFIX });
const result = await requestTransfer(
  {
    store,
    pool,
    logger: createLogger('request-transfer'),
    comparePin: async (pin, hash) => hash === `hash:${pin}`,
    enqueue: (step, transferId) => ensureTransferJob(queues, step, transferId),
    debitWindowMs: Math.floor(config.TRANSFER_ABANDON_AFTER_MS / 2),
    fault: faultHookFromSpec(config.WORKER_FAULT, config.NODE_ENV),
  },
  { userId: command.userId, input: transferInput.parse(command.input), idempotencyKey: command.idempotencyKey },
);
process.stdout.write(`REQUESTED ${result.transferId}\n`);
await queues.close();
redis.disconnect();
await store.close();
await pool.end();
