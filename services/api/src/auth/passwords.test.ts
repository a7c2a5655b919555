import { monitorEventLoopDelay } from 'node:perf_hooks';
import bcrypt from 'bcryptjs';
import { describe, expect, it } from 'vitest';
import { bcryptCompare, hashSecret, verifyAgainstDecoy, verifySecret } from './passwords';

describe('passwords (bcrypt in worker threads)', () => {
  it('hashes with cost 10 or more and verifies; hashes made before (on the event loop, $2a/$2b) still verify', async () => {
    const hash = await hashSecret('correct horse');
    expect(hash).toMatch(/^\$2[ab]\$1\d\$/);
    expect(await verifySecret('correct horse', hash)).toBe(true);
    expect(await verifySecret('wrong horse', hash)).toBe(false);
    const legacy = bcrypt.hashSync('legacy-pin-123456', 4).replace(/^\$2b\$/, '$2a$');
    expect(await bcryptCompare('legacy-pin-123456', legacy)).toBe(true);
    expect(await bcryptCompare('legacy-pin-654321', legacy)).toBe(false);
    expect(await verifyAgainstDecoy('anything')).toBe(false);
  });

  it('keeps the event loop free while it hashes', async () => {
    const histogram = monitorEventLoopDelay({ resolution: 5 });
    histogram.enable();
    const started = performance.now();
    await Promise.all([hashSecret('one', 12), hashSecret('two', 12)]);
    const elapsed = performance.now() - started;
    histogram.disable();
    const longestStallMs = histogram.max / 1e6;
    // Two cost-12 hashes take hundreds of milliseconds of CPU; on the event loop they would stall it that long.
    expect(elapsed).toBeGreaterThan(200);
    expect(longestStallMs).toBeLessThan(elapsed / 2);
  });
});
