/**
 * The generated history between its two passes (seedBank.ts): each stream's segments (seedStream.ts), encoded as
 * lines, gathered by slot (seedCalendar.ts) in files of a temporary directory, so that a million customers take
 * disk, not memory. The second pass (seedDays.ts) reads the slots back in order.
 *
 * A line is one event: `\t<stream>\t<revision>\t<id>\t<type>\t<data>\t<metadata>` (the events table's COPY line
 * without its global position, bulkEventLoad.ts), then `\t<hash>\t<prevHash>\t<chain key id>\t<1 when it is its
 * stream's last event>` (what the checkpoint writer and the streams table need).
 */
import { CHAIN_KEY_ID } from '@bank/commands';
import type { NewEvent } from '@bank/eventstore';
import { appendFileSync, createReadStream, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { copyField } from './copyField';
import type { StreamSegment } from './seedStream';

/** Lines of a part of the history, by slot. */
export type SlotLines = Map<number, string>;

const textOf = (value: unknown): string => (typeof value === 'string' ? copyField(value) : '');

/** Adds a stream's segment to `into`, as lines of its slot. */
export function encodeSegment(into: SlotLines, stream: string, segment: StreamSegment): void {
  const streamField = copyField(stream);
  let text = '';
  let revision = segment.fromRevision;
  const lastRevision = segment.fromRevision + segment.events.length - 1;
  for (const event of segment.events) {
    const metadata = event.metadata ?? {};
    const final = segment.last && revision === lastRevision ? '1' : '';
    text += `\t${streamField}\t${revision}\t${event.id}\t${copyField(event.type)}\t${copyField(JSON.stringify(event.data))}\t${copyField(JSON.stringify(metadata))}`;
    text += `\t${textOf(metadata.hash)}\t${textOf(metadata.prevHash)}\t${textOf(metadata[CHAIN_KEY_ID])}\t${final}\n`;
    revision += 1;
  }
  into.set(segment.slot, (into.get(segment.slot) ?? '') + text);
}

/** A line taken apart: the COPY line's fields, the event, and what the checkpoint writer reads. */
export interface SpilledEvent {
  readonly stream: string;
  readonly revision: number;
  readonly type: string;
  /** The events table's COPY line without its global position (starts with a tab, no newline). */
  readonly copyLine: string;
  readonly hash: string | null;
  readonly prevHash: string | null;
  readonly keyId: string | null;
  /** The stream's last event. */
  readonly final: boolean;
}

const uncopy = (field: string): string => (field.includes('\\') ? field.replace(/\\(.)/g, (_, c: string) => (c === 'n' ? '\n' : c === 'r' ? '\r' : c === 't' ? '\t' : c)) : field);
const orNull = (field: string): string | null => (field === '' ? null : uncopy(field));

export function decodeLine(line: string): SpilledEvent {
  let end = line.length;
  const tail: string[] = [];
  for (let i = 0; i < 4; i += 1) {
    const tab = line.lastIndexOf('\t', end - 1);
    tail.unshift(line.slice(tab + 1, end));
    end = tab;
  }
  const copyLine = line.slice(0, end);
  const second = copyLine.indexOf('\t', 1);
  const third = copyLine.indexOf('\t', second + 1);
  const fourth = copyLine.indexOf('\t', third + 1);
  const fifth = copyLine.indexOf('\t', fourth + 1);
  return {
    stream: uncopy(copyLine.slice(1, second)),
    revision: Number(copyLine.slice(second + 1, third)),
    type: uncopy(copyLine.slice(fourth + 1, fifth)),
    copyLine,
    hash: orNull(tail[0]!),
    prevHash: orNull(tail[1]!),
    keyId: orNull(tail[2]!),
    final: tail[3] === '1',
  };
}

/** The event of a line, as the store's appends take it. */
export function newEventOf(spilled: SpilledEvent): NewEvent {
  const fields = spilled.copyLine.split('\t');
  return { id: fields[3]!, type: uncopy(fields[4]!), data: JSON.parse(uncopy(fields[5]!)) as Record<string, unknown>, metadata: JSON.parse(uncopy(fields[6]!)) as Record<string, unknown> };
}

/** Bytes held in memory before they are written to the slots' files. */
const FLUSH_BYTES = 16 * 1024 * 1024;

export class SlotSpill {
  private readonly dir = mkdtempSync(path.join(tmpdir(), 'seed-history-'));
  private readonly pending: SlotLines = new Map();
  private pendingBytes = 0;
  private readonly counts: number[];

  /** `slots`: the history's (seedCalendar.ts). */
  constructor(private readonly slots: number) {
    this.counts = new Array<number>(slots).fill(0);
  }

  /** Adds lines (a customer's, a block's) after everything added before. */
  add(lines: SlotLines): void {
    for (const [slot, text] of lines) {
      if (slot < 0 || slot >= this.slots) throw new Error(`slot ${slot} is outside the generated history`);
      this.pending.set(slot, (this.pending.get(slot) ?? '') + text);
      this.pendingBytes += text.length;
      let lines = 0;
      for (let end = text.indexOf('\n'); end >= 0; end = text.indexOf('\n', end + 1)) lines += 1;
      this.counts[slot] = (this.counts[slot] ?? 0) + lines;
    }
    if (this.pendingBytes >= FLUSH_BYTES) this.flush();
  }

  private fileOf(slot: number): string {
    return path.join(this.dir, `slot-${slot}`);
  }

  flush(): void {
    for (const [slot, text] of this.pending) appendFileSync(this.fileOf(slot), text);
    this.pending.clear();
    this.pendingBytes = 0;
  }

  /** How many events the slot holds. */
  count(slot: number): number {
    return this.counts[slot] ?? 0;
  }

  /** The slot's events, in the order they were added. */
  async *read(slot: number): AsyncGenerator<SpilledEvent> {
    this.flush();
    const file = this.fileOf(slot);
    if (!existsSync(file)) return;
    const lines = createInterface({ input: createReadStream(file, { encoding: 'utf8', highWaterMark: 1 << 20 }), crlfDelay: Infinity });
    for await (const line of lines) if (line) yield decodeLine(line);
  }

  remove(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }
}
