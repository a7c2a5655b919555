import { describe, expect, it } from 'vitest';
import { parseProjectorSettings } from './projectorConfig';

describe('the projector process settings', () => {
  it('default to no metrics server, batches of at most 5,000 events and a pool of 5', () => {
    expect(parseProjectorSettings({})).toEqual({ PROJECTOR_MAX_BATCH: 5_000, PROJECTOR_POOL_SIZE: 5 });
  });

  it('read the environment and name every bad variable', () => {
    expect(parseProjectorSettings({ PROJECTOR_METRICS_PORT: '9464', PROJECTOR_MAX_BATCH: '200', PROJECTOR_POOL_SIZE: '' })).toEqual({
      PROJECTOR_METRICS_PORT: 9464,
      PROJECTOR_MAX_BATCH: 200,
      PROJECTOR_POOL_SIZE: 5,
    });
    expect(() => parseProjectorSettings({ PROJECTOR_METRICS_PORT: 'abc', PROJECTOR_MAX_BATCH: '0' })).toThrow(/PROJECTOR_METRICS_PORT[\s\S]*PROJECTOR_MAX_BATCH/);
  });
});
