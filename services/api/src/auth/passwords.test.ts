import { availableParallelism } from 'node:os';
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

  it('serves hashes in the order they were asked while more keep coming: none is left waiting behind later ones', async () => {
    // Eight callers hashing one after the other, as sign-ups do: the pool is never idle until the last. A request that
    // the pool kept passing over waited until the others stopped (a sign-up answered 503 by the request deadline).
    let asked = 0;
    let answered = 0;
    const tasks: { asked: number; answered: number }[] = [];
    const caller = async () => {
      for (let i = 0; i < 4; i += 1) {
        const task = { asked: asked++, answered: -1 };
        await hashSecret(`secret-${task.asked}`);
        task.answered = answered++;
        tasks.push(task);
      }
    };
    await Promise.all(Array.from({ length: 8 }, caller));
    // How many asked later were answered first: with the tasks taken in order, no more than the pool's threads.
    const overtaken = tasks.map((task) => tasks.filter((other) => other.asked > task.asked && other.answered < task.answered).length);
    expect(Math.max(...overtaken)).toBeLessThanOrEqual(availableParallelism());
  });
});
