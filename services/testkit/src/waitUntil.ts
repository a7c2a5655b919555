/** Polls `check` until it returns true (or a value that is not false/undefined); fails after `timeoutMs`. */
export async function waitUntil<T>(check: () => Promise<T | false | undefined>, options: { timeoutMs?: number; intervalMs?: number; what?: string } = {}): Promise<T> {
  const deadline = Date.now() + (options.timeoutMs ?? 20_000);
  let last: unknown;
  for (;;) {
    try {
      const value = await check();
      if (value !== false && value !== undefined) return value;
    } catch (error) {
      last = error;
    }
    if (Date.now() > deadline) {
      throw new Error(`Timed out waiting for ${options.what ?? 'a condition'}${last ? `: ${String(last)}` : ''}`);
    }
    await new Promise((resolve) => setTimeout(resolve, options.intervalMs ?? 50));
  }
}
