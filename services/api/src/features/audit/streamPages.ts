import type { EventStore, RecordedEvent } from '@bank/eventstore';

export interface StreamPageOptions {
  /** Events per read (default 5,000). */
  readonly pageSize?: number;
  /**
   * Ask for the next page while the caller works on this one, so the database and the fold run side by side.
   * Off when a caller may stop early and must not read more than it uses.
   */
  readonly readAhead?: boolean;
  /** Called after each read with its number of events: lets tests count the work done. */
  readonly onPage?: (events: number) => void;
}

/**
 * A stream in pages, oldest first, each one indexed read of at most `pageSize` events: memory stays at a page or
 * two whatever the stream's length, and the database never sorts the whole stream for one answer.
 */
export async function* streamPages(store: EventStore, stream: string, options: StreamPageOptions = {}): AsyncGenerator<RecordedEvent[]> {
  const pageSize = options.pageSize ?? 5_000;
  const read = async (fromRevision: bigint): Promise<RecordedEvent[]> => {
    const page = await store.readStream(stream, { fromRevision, limit: pageSize });
    options.onPage?.(page.length);
    return page;
  };
  let pending: Promise<RecordedEvent[]> | undefined = read(0n);
  try {
    while (pending) {
      const page: RecordedEvent[] = await pending;
      const last = page.at(-1);
      const next = last !== undefined && page.length === pageSize ? last.revision + 1n : undefined;
      pending = next !== undefined && options.readAhead ? read(next) : undefined;
      if (page.length > 0) yield page;
      // Without read-ahead the next read starts only when the caller asks for more.
      if (next !== undefined && !options.readAhead) pending = read(next);
    }
  } finally {
    // A caller that stops early leaves at most one read in flight: let it settle without an unhandled rejection.
    pending?.catch(() => undefined);
  }
}
