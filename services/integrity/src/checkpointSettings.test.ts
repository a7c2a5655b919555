import path from 'node:path';
import { ConfigError } from '@bank/platform';
import { describe, expect, it } from 'vitest';
import { parseCheckpointSettings } from './checkpointSettings';

const config = { DATA_DIR: '/var/bank', DATABASE_URL: 'postgres://app:secret@db:5432/bank', EVENTSTORE_URL: undefined };

describe('the checkpoint settings', () => {
  it('keep each event log its own directory under DATA_DIR by default, every minute, 64 MiB files', () => {
    expect(parseCheckpointSettings(config, {})).toEqual({ dir: '/var/bank/checkpoints/postgres-bank', everyMs: 60_000, maxFileBytes: 64 * 1024 * 1024 });
    expect(parseCheckpointSettings({ ...config, EVENTSTORE_URL: 'esdb://admin:changeit@es1:2113,es2:2113?tls=true' }, {}).dir).toBe(
      '/var/bank/checkpoints/eventstoredb-es1_2113_es2_2113',
    );
  });

  it('take CHECKPOINT_DIR, CHECKPOINT_EVERY_MS and CHECKPOINT_FILE_MAX_BYTES, and refuse nonsense naming the variable', () => {
    expect(parseCheckpointSettings(config, { CHECKPOINT_DIR: 'audit/log', CHECKPOINT_EVERY_MS: '5000', CHECKPOINT_FILE_MAX_BYTES: '1048576' })).toEqual({
      dir: path.resolve('audit/log'),
      everyMs: 5000,
      maxFileBytes: 1048576,
    });
    expect(() => parseCheckpointSettings(config, { CHECKPOINT_EVERY_MS: '10' })).toThrow(ConfigError);
    expect(() => parseCheckpointSettings(config, { CHECKPOINT_EVERY_MS: 'often' })).toThrow(/CHECKPOINT_EVERY_MS/);
  });
});
