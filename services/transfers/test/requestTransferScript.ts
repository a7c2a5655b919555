/**
 * A transfer request as a process of its own, for the crash tests: runs requestTransfer once with the request in
 * TRANSFER_REQUEST (JSON: {userId, input, idempotencyKey?}) against DATABASE_URL with TRANSFER_FAULT's points, then
 * prints `REQUESTED <transferId> <status>` and exits. Pins are checked with PIN_KEYS.
 */
import { createCommandHandler, createPostgresSnapshotStore } from '@bank/commands';
import { transferInput } from '@bank/domain';
import { createEventStore } from '@bank/eventstore';
import { createPool, parseConfig, parseKeyringText } from '@bank/platform';
import { createTransferSignals, faultHookFromSpec, parseTransferSettings, requestTransfer } from '../src/index';

const config = parseConfig(process.env);
const settings = parseTransferSettings(process.env);
const command = JSON.parse(process.env.TRANSFER_REQUEST ?? '{}') as { userId: string; input: unknown; idempotencyKey?: string };
const pool = createPool(config.DATABASE_URL, 4);
const store = await createEventStore(config, { pool });
const commands = createCommandHandler({ store, snapshots: createPostgresSnapshotStore(pool) });
const signals = createTransferSignals({ pool });
const answer = await requestTransfer(
  {
    commands,
    pool,
    signals,
    pinKeys: parseKeyringText('pin', 'PIN_KEYS', process.env.PIN_KEYS ?? ''),
    creditWaitMs: 2_000,
    fault: faultHookFromSpec(settings.TRANSFER_FAULT, config.NODE_ENV),
  },
  { userId: command.userId, input: transferInput.parse(command.input), ...(command.idempotencyKey ? { idempotencyKey: command.idempotencyKey } : {}) },
);
process.stdout.write(`REQUESTED ${answer.transferId} ${answer.status}\n`);
await signals.close();
await store.close();
await pool.end();
