/**
 * For childProcess.int.test.ts: prints `READY`, then `TICK <i>` every TICK_MS, TICKS times, then `END` (nothing more
 * when TICKS is 0), then idles until killed.
 */
export {};
const every = Number(process.env.TICK_MS ?? '50');
const ticks = Number(process.env.TICKS ?? '0');
process.stdout.write('READY\n');
for (let i = 0; i < ticks; i += 1) {
  await new Promise((resolve) => setTimeout(resolve, every));
  process.stdout.write(`TICK ${i}\n`);
}
if (ticks > 0) process.stdout.write('END\n');
setInterval(() => undefined, 60_000);
