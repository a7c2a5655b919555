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
  /**
   * The events table's COPY line without its global position, as the UTF-8 bytes the slot's file holds (starts with a
   * tab, no newline): the bulk load copies them into its COPY as they are, never decoding the event's data.
   */
  readonly copyLine: Buffer;
  readonly hash: string | null;
  readonly prevHash: string | null;
  readonly keyId: string | null;
  /** The stream's last event. */
  readonly final: boolean;
}

const TAB = 0x09;
const NEWLINE = 0x0a;
/** Tabs in a line: one before each of its ten fields (six of the COPY line, four after it). */
const LINE_TABS = 10;

const uncopy = (field: string): string => (field.includes('\\') ? field.replace(/\\(.)/g, (_, c: string) => (c === 'n' ? '\n' : c === 'r' ? '\r' : c === 't' ? '\t' : c)) : field);
const orNull = (field: string): string | null => (field === '' ? null : uncopy(field));

/** The offsets of a line's tabs (COPY escapes a tab inside a field, so each one starts a field). */
function tabsOf(line: Buffer, count: number): number[] {
  const tabs: number[] = [];
  for (let at = line.indexOf(TAB); at >= 0 && tabs.length < count; at = line.indexOf(TAB, at + 1)) tabs.push(at);
  if (tabs.length < count) throw new Error(`a spilled line has ${tabs.length} fields, not ${count}`);
  return tabs;
}

/** The text of the `index`-th of a line's `tabs.length` fields (the bytes after its tab, up to the next or the end). */
function fieldText(line: Buffer, tabs: readonly number[], index: number): string {
  return line.toString('utf8', tabs[index]! + 1, index + 1 < tabs.length ? tabs[index + 1] : line.length);
}

/** A spilled line (its bytes, or its text as encodeSegment writes it) taken apart. */
export function decodeLine(line: Buffer | string): SpilledEvent {
  const bytes = typeof line === 'string' ? Buffer.from(line, 'utf8') : line;
  const tabs = tabsOf(bytes, LINE_TABS);
  return {
    stream: uncopy(fieldText(bytes, tabs, 0)),
    revision: Number(fieldText(bytes, tabs, 1)),
    type: uncopy(fieldText(bytes, tabs, 3)),
    copyLine: bytes.subarray(0, tabs[6]),
    hash: orNull(fieldText(bytes, tabs, 6)),
    prevHash: orNull(fieldText(bytes, tabs, 7)),
    keyId: orNull(fieldText(bytes, tabs, 8)),
    final: fieldText(bytes, tabs, 9) === '1',
  };
}

/** The event of a line, as the store's appends take it. */
export function newEventOf(spilled: SpilledEvent): NewEvent {
  const line = spilled.copyLine;
  const tabs = tabsOf(line, 6);
  return {
    id: uncopy(fieldText(line, tabs, 2)),
    type: uncopy(fieldText(line, tabs, 3)),
    data: JSON.parse(uncopy(fieldText(line, tabs, 4))) as Record<string, unknown>,
    metadata: JSON.parse(uncopy(fieldText(line, tabs, 5))) as Record<string, unknown>,
  };
}

/** The lines of a file of lines, as the bytes between its newlines (read a megabyte at a time). */
async function* linesOf(file: string): AsyncGenerator<Buffer> {
  let rest: Buffer | undefined;
  for await (const chunk of createReadStream(file, { highWaterMark: 1 << 20 }) as AsyncIterable<Buffer>) {
    const data = rest ? Buffer.concat([rest, chunk]) : chunk;
    let start = 0;
    for (let end = data.indexOf(NEWLINE); end >= 0; end = data.indexOf(NEWLINE, start)) {
      if (end > start) yield data.subarray(start, end);
      start = end + 1;
    }
    rest = start < data.length ? data.subarray(start) : undefined;
  }
  if (rest) yield rest;
}

/** Bytes held in memory before they are written to the slots' files. */
const FLUSH_BYTES = 16 * 1024 * 1024;

/** The spills' folders not yet removed: a load stopped by a signal removes them before it ends. */
const liveDirs = new Set<string>();

/**
 * On SIGINT or SIGTERM (Ctrl-C, a `kill`), removes the live spills' folders (a million customers' history is about
 * 20 GB of the temporary folder, and an ended load could not use it again), then ends the process by the same
 * signal, as it would have ended without this handler. Installed with the first spill.
 */
function removeOnSignal(): void {
  if (liveDirs.size > 0) return;
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      for (const dir of liveDirs) rmSync(dir, { recursive: true, force: true });
      process.kill(process.pid, signal);
    });
  }
}

export class SlotSpill {
  private readonly dir = SlotSpill.makeDir();
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
    for await (const line of linesOf(file)) yield decodeLine(line);
  }

  /** The folder holding the slots' files. */
  get folder(): string {
    return this.dir;
  }

  remove(): void {
    rmSync(this.dir, { recursive: true, force: true });
    liveDirs.delete(this.dir);
  }

  private static makeDir(): string {
    removeOnSignal();
    const dir = mkdtempSync(path.join(tmpdir(), 'seed-history-'));
    liveDirs.add(dir);
    return dir;
  }
}
