import { createCheckpointWriter } from '@bank/integrity';
import type { Keyring } from '@bank/platform';
import { rebuildProjections, type RebuildOptions, type RebuildResult } from '@bank/projector';
import type pg from 'pg';
import { openBulkEventLoad, type BulkLoadResult } from './bulkEventLoad';
import { seedBank, type SeedBankOptions, type SeedBankResult } from './seedBank';
import { saveSeedDocument } from './seedDocument';
import { seedTransferCheckpoint } from './seedTransferCheckpoint';
import { seedBankInWorkers } from './seedWorkers';
import { waitForLogPosition } from './waitForLogPosition';

export interface GeneratedBankLoad {
  readonly seeded: SeedBankResult;
  /** Writing the events, the verifications' document and the transfer checkpoint. */
  readonly loadSeconds: number;
  /** The CPU this process (all its threads) spent on that: on a shared machine, a steadier figure than the seconds. */
  readonly loadCpuSeconds: number;
  readonly rebuilt: RebuildResult;
  /** Writing the signed checkpoints of the whole log after the rebuild (the appends path, when asked for). */
  readonly checkpointSeconds: number | undefined;
  /** The bulk path's figures (when it was taken). */
  readonly bulk: BulkLoadResult | undefined;
}

/** Where the bank keeps its signed checkpoints and the keys that sign them (CHECKPOINT_DIR, CHECKPOINT_KEYS). */
export interface GeneratedBankCheckpoints {
  readonly dir: string;
  readonly keys: Pick<Keyring, 'current' | 'byId'>;
}

/**
 * A generated bank on a database with the event store's and the read models' schemas: the events (seedBank), the
 * verifications' document in the file store, the transfer process's checkpoint past every generated transfer, then
 * the read models built by the projector's rebuild, and (when given where) the signed checkpoints of the log. What `npm run seed:scale` and `npm run bench:scale` both do.
 */
export async function loadGeneratedBank(
  options: SeedBankOptions & {
    readonly pool: pg.Pool;
    readonly rebuild?: Omit<RebuildOptions, 'pool' | 'store'>;
    /** Also bring the signed checkpoints up to the load, as the bank's checkpoint writer would on its first start. */
    readonly checkpoints?: GeneratedBankCheckpoints;
    /** COPY into an empty store (bulkEventLoad.ts; refused when it is not empty) instead of the store's appends. */
    readonly bulk?: boolean;
    /** The bulk path's events per transaction (default 50,000). */
    readonly bulkEventsPerTransaction?: number;
    /** The bulk path's generating threads (seedWorkers.ts; default 0: this thread generates, the fastest on this busy 2-core machine). */
    readonly workers?: number;
  },
): Promise<GeneratedBankLoad> {
  const started = performance.now();
  const cpuBefore = process.cpuUsage();
  let bulkLoad: BulkLoadResult | undefined;
  let seeded: SeedBankResult;
  if (options.bulk) {
    const bulk = await openBulkEventLoad({ pool: options.pool, store: options.store, checkpoints: options.checkpoints, eventsPerTransaction: options.bulkEventsPerTransaction });
    try {
      // The customers generated one after the other (threads generate blocks of them, spilled in order), then written
      // day by day: the same log every run.
      const workers = options.workers ?? 0;
      seeded = workers > 0 ? await seedBankInWorkers({ ...options, workers }, bulk) : await seedBank({ ...options, sink: bulk });
    } catch (error) {
      await bulk.abort();
      throw error;
    }
    bulkLoad = await bulk.finish();
  } else {
    seeded = await seedBank(options);
  }
  await saveSeedDocument(options.pool, seeded.verifiers);
  await seedTransferCheckpoint(options.pool, seeded.position);
  const loadSeconds = (performance.now() - started) / 1000;
  const cpu = process.cpuUsage(cpuBefore);
  const loadCpuSeconds = (cpu.user + cpu.system) / 1e6;
  // Another transaction open on the server would hide the newest events from the rebuild's reads: wait it out.
  if (seeded.position) await waitForLogPosition(options.store, seeded.position);
  const rebuilt = await rebuildProjections({ ...options.rebuild, pool: options.pool, store: options.store });
  // The bulk load wrote them as it went (bulkLoad.checkpointSeconds, inside loadSeconds).
  const checkpointSeconds = options.checkpoints && !bulkLoad ? await writeCheckpoints(options.store, options.checkpoints) : undefined;
  return { seeded, loadSeconds, loadCpuSeconds, rebuilt, checkpointSeconds, bulk: bulkLoad };
}

/**
 * Brings the signed checkpoints in `dir` up to the head of the log: what the bank's checkpoint writer does on its first
 * start over a log it has not vouched for yet (the whole log, read once). Done with the load, the bank starts with
 * nothing to catch up. Answers the seconds it took.
 */
export async function writeCheckpoints(store: SeedBankOptions['store'], checkpoints: GeneratedBankCheckpoints): Promise<number> {
  const started = performance.now();
  const writer = createCheckpointWriter({ store, keys: checkpoints.keys, dir: checkpoints.dir, pageSize: 10_000 });
  await writer.writeOnce();
  return (performance.now() - started) / 1000;
}
