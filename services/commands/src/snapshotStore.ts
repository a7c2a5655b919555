import { runDdl } from '@bank/platform';
import type pg from 'pg';

/**
 * Persisted snapshots of folded stream states: a cache that spares a cold process the read of a long stream from
 * its first event. Never the source of truth: a snapshot is only ever used as the starting point of a fold that
 * continues with the events after it, deleting every snapshot changes no answer, and the auditors' replay never
 * reads them. A snapshot of another `stateVersion` than the aggregate's is ignored.
 */
export interface StoredSnapshot {
  readonly streamId: string;
  readonly aggregate: string;
  readonly stateVersion: number;
  /** Revision of the stream's last event folded into `state`. */
  readonly revision: bigint;
  /** Chain hash of that event (the next append continues the chain from it). */
  readonly lastHash: string | null;
  readonly state: unknown;
}

export interface SnapshotStore {
  load(aggregate: string, stateVersion: number, streamId: string): Promise<StoredSnapshot | undefined>;
  /** Keeps the newer of the stored snapshot and this one. */
  save(snapshot: StoredSnapshot): Promise<void>;
}

export const SNAPSHOT_SCHEMA = 'commands';

/** Creates the snapshot table when missing (idempotent). */
export async function ensureSnapshotSchema(pool: pg.Pool): Promise<void> {
  await runDdl(pool, 'snapshot-schema', `
    CREATE SCHEMA IF NOT EXISTS ${SNAPSHOT_SCHEMA};
    CREATE TABLE IF NOT EXISTS ${SNAPSHOT_SCHEMA}.snapshots (
      aggregate      text        NOT NULL,
      stream_id      text        NOT NULL,
      state_version  integer     NOT NULL,
      revision       bigint      NOT NULL,
      last_hash      text,
      state          jsonb       NOT NULL,
      taken_at       timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (aggregate, stream_id)
    );`);
}

interface SnapshotRow {
  state_version: number;
  revision: string;
  last_hash: string | null;
  state: unknown;
}

/** Snapshots in PostgreSQL (whatever the event store: with EventStoreDB the read models' database holds them). */
export function createPostgresSnapshotStore(pool: pg.Pool): SnapshotStore {
  return {
    async load(aggregate, stateVersion, streamId) {
      const { rows } = await pool.query<SnapshotRow>({
        name: 'commands.snapshot_load',
        text: `SELECT state_version, revision, last_hash, state FROM ${SNAPSHOT_SCHEMA}.snapshots WHERE aggregate = $1 AND stream_id = $2`,
        values: [aggregate, streamId],
      });
      const row = rows[0];
      if (!row || row.state_version !== stateVersion) return undefined;
      return { streamId, aggregate, stateVersion, revision: BigInt(row.revision), lastHash: row.last_hash, state: row.state };
    },
    async save(snapshot) {
      await pool.query({
        name: 'commands.snapshot_save',
        text: `INSERT INTO ${SNAPSHOT_SCHEMA}.snapshots AS s (aggregate, stream_id, state_version, revision, last_hash, state)
               VALUES ($1, $2, $3, $4, $5, $6)
               ON CONFLICT (aggregate, stream_id) DO UPDATE
                 SET state_version = EXCLUDED.state_version, revision = EXCLUDED.revision, last_hash = EXCLUDED.last_hash,
                     state = EXCLUDED.state, taken_at = now()
               WHERE s.revision < EXCLUDED.revision OR s.state_version <> EXCLUDED.state_version`,
        values: [snapshot.aggregate, snapshot.streamId, snapshot.stateVersion, snapshot.revision.toString(), snapshot.lastHash, JSON.stringify(snapshot.state)],
      });
    },
  };
}
