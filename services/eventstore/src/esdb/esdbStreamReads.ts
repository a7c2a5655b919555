import { BACKWARDS, END, FORWARDS, type EventStoreDBClient } from '@eventstore/db-client';
import { StreamDeletedError } from '../errors';
import type { RecordedEvent } from '../eventStore';
import { isEsdbStreamDeleted, isStreamNotFound } from './esdbErrors';
import { toRecordedEvent } from './esdbMapping';

type StreamReader = Pick<EventStoreDBClient, 'readStream'>;

/** A stream's events, forwards from a revision or backwards from the end (returned oldest first); [] for a missing stream. */
async function readEvents(client: StreamReader, stream: string, from: bigint | typeof END, count: number): Promise<RecordedEvent[]> {
  const events: RecordedEvent[] = [];
  const backwards = from === END;
  try {
    for await (const resolved of client.readStream(stream, { fromRevision: from, maxCount: count, direction: backwards ? BACKWARDS : FORWARDS })) {
      const event = toRecordedEvent(resolved);
      if (event) events.push(event);
    }
  } catch (error) {
    if (isStreamNotFound(error)) return [];
    throw error;
  }
  return backwards ? events.reverse() : events;
}

/** readStream of the port: a missing or tombstoned stream reads as [] (the port's promise for deleted streams). */
export async function readStreamEvents(client: StreamReader, stream: string, from: bigint, count: number): Promise<RecordedEvent[]> {
  try {
    return await readEvents(client, stream, from, count);
  } catch (error) {
    if (isEsdbStreamDeleted(error)) return [];
    throw error;
  }
}

/** The stream's last `count` events, oldest first, for the append's id check; our StreamDeletedError for a tombstone. */
export async function readStreamTail(client: StreamReader, stream: string, count: number): Promise<RecordedEvent[]> {
  try {
    return await readEvents(client, stream, END, count);
  } catch (error) {
    throw isEsdbStreamDeleted(error) ? new StreamDeletedError(stream) : error;
  }
}
