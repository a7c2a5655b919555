export interface TurnBatcherOptions<Request, Result> {
  /** Runs one request (its plain statement: used when a turn of the event loop asked for one only). */
  readonly runOne: (request: Request) => Promise<Result>;
  /** Runs several requests in one statement; resolves with one result per request, in order. */
  readonly runMany: (requests: readonly Request[]) => Promise<readonly Result[]>;
  /** Most requests in one statement; a larger gathering is split. */
  readonly maxBatch: number;
}

/**
 * Reads asked during one turn of the event loop go to PostgreSQL together, as one statement: a transfer's request
 * reads the payer's customer stream and the account number's reservation at the same time, and requests in flight
 * together check their sessions and read their streams in the same turns. A read is never held back for a later turn
 * (none waits for another to return), so a read alone costs what it did: one statement, sent at the end of its turn.
 * Each request gets a result of its own (two identical reads are two results: callers may keep and change what they
 * read). A failed statement fails every request it carried (as they would have failed alone: the same server, the
 * same moment), so a request that could fail on its own input must be checked before it is asked.
 */
export function createTurnBatcher<Request, Result>(options: TurnBatcherOptions<Request, Result>): (request: Request) => Promise<Result> {
  interface Waiting {
    readonly request: Request;
    resolve(result: Result): void;
    reject(error: unknown): void;
  }
  let gathering: Waiting[] = [];
  let scheduled = false;

  function send(part: readonly Waiting[]): void {
    const results = part.length === 1 ? options.runOne(part[0]!.request).then((result) => [result]) : options.runMany(part.map((entry) => entry.request));
    results.then(
      (answers) => part.forEach((entry, index) => entry.resolve(answers[index]!)),
      (error: unknown) => part.forEach((entry) => entry.reject(error)),
    );
  }

  function flush(): void {
    scheduled = false;
    const entries = gathering;
    gathering = [];
    for (let start = 0; start < entries.length; start += options.maxBatch) send(entries.slice(start, start + options.maxBatch));
  }

  return function run(request: Request): Promise<Result> {
    return new Promise<Result>((resolve, reject) => {
      gathering.push({ request, resolve, reject });
      if (!scheduled) {
        scheduled = true;
        setImmediate(flush);
      }
    });
  };
}
