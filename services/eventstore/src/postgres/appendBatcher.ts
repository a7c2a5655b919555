export interface AppendBatcherOptions<Request, Response> {
  /** Performs a batch (one round trip); resolves with one response per request, in order. */
  readonly run: (batch: readonly Request[]) => Promise<readonly Response[]>;
  /** Largest batch sent at once. */
  readonly maxBatchSize: number;
  /** Batches in flight at once; requests arriving meanwhile wait and go together in the next batch. */
  readonly maxConcurrentBatches: number;
}

/**
 * Group commit for appends: a request goes out at once when fewer than `maxConcurrentBatches` batches are in
 * flight; otherwise it waits, and all waiting requests go out together when a batch returns. One transaction's
 * commit (WAL flush) and one round trip then serve many appends. When a batch of several fails as a whole, each
 * of its requests is run again on its own, so one bad request fails alone (retrying is safe: appends are
 * idempotent by event id).
 */
export function createAppendBatcher<Request, Response>(options: AppendBatcherOptions<Request, Response>) {
  const waiting: Array<{ request: Request; resolve(response: Response): void; reject(error: unknown): void }> = [];
  let inFlight = 0;

  async function execute(batch: typeof waiting): Promise<void> {
    try {
      const responses = await options.run(batch.map((entry) => entry.request));
      batch.forEach((entry, index) => entry.resolve(responses[index]!));
    } catch (error) {
      if (batch.length === 1) batch[0]!.reject(error);
      else await Promise.all(batch.map((entry) => execute([entry])));
    }
  }

  let flushScheduled = false;

  function send(): void {
    while (inFlight < options.maxConcurrentBatches && waiting.length > 0) {
      const batch = waiting.splice(0, options.maxBatchSize);
      inFlight += 1;
      void execute(batch).finally(completed);
    }
  }

  // When a batch completes, its callers typically append again at once: wait one turn of the event loop so that
  // those appends go out together instead of the first alone.
  function completed(): void {
    inFlight -= 1;
    if (flushScheduled) return;
    flushScheduled = true;
    setImmediate(() => {
      flushScheduled = false;
      send();
    });
  }

  return function submit(request: Request): Promise<Response> {
    return new Promise<Response>((resolve, reject) => {
      waiting.push({ request, resolve, reject });
      if (!flushScheduled) send();
    });
  };
}
