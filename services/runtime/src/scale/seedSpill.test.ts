import { accountDecider } from '@bank/domain';
import { spawn } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { daySlot, seedCalendar } from './seedCalendar';
import { encodeSegment, newEventOf, SlotSpill, type SlotLines, type SpilledEvent } from './seedSpill';
import { SeedStream } from './seedStream';

const calendar = seedCalendar();
let spill: SlotSpill | undefined;

afterEach(() => spill?.remove());

/** A stream of `count` account events whose text holds multi-byte characters and every character COPY escapes. */
function streamOf(name: string, count: number, padding: number): SeedStream<never, never, never> {
  const stream = new SeedStream(name, accountDecider, undefined, calendar);
  const at = '2025-01-03T10:00:00.000Z';
  stream.command({ type: 'OpenAccount', userId: `Zoë\tß\\€\n${'x'.repeat(padding)}`, accountNumber: '4000000002', now: at }, { commandId: `${name}:0`, metadata: { actorRole: 'customer', actorId: 'Renée 🙂' } }, at);
  for (let n = 1; n < count; n += 1) {
    stream.command(
      { type: 'PostStaffTransaction', transactionId: `t-${n}`, adminId: 'a', account: 'checking', direction: 'credit', amountCents: 100 + n, date: at, description: `Café «${n}»\t${'é'.repeat(padding)}`, now: at },
      { commandId: `${name}:${n}`, metadata: { actorRole: 'admin', actorId: 'a' } },
      at,
    );
  }
  return stream as unknown as SeedStream<never, never, never>;
}

async function readAll(from: SlotSpill, slot: number): Promise<SpilledEvent[]> {
  const events: SpilledEvent[] = [];
  for await (const event of from.read(slot)) events.push(event);
  return events;
}

describe('the spilled history read back from its files', () => {
  it('gives back every event byte for byte: multi-byte text, escaped tabs, newlines and backslashes, lines across the reader’s megabyte reads', async () => {
    spill = new SlotSpill(calendar.slots);
    // About 2.5 MB in the slot's file: lines of ~9 kB, so several cross a megabyte boundary of the reader.
    const streams = [streamOf('account-a', 150, 3_000), streamOf('account-b', 150, 3_000)];
    const written: SlotLines[] = [];
    for (const stream of streams) {
      const lines: SlotLines = new Map();
      for (const segment of stream.segments()) encodeSegment(lines, stream.stream, segment);
      written.push(lines);
      spill.add(lines);
    }
    const read = await readAll(spill, daySlot(2));
    const expected = streams.flatMap((stream) => stream.events.map((event, revision) => ({ stream: stream.stream, revision, event })));
    expect(read.length).toBe(300);
    expect(spill.count(daySlot(2))).toBe(300);
    expect(read.map((event) => [event.stream, event.revision, event.type, event.final])).toEqual(
      expected.map(({ stream, revision, event }) => [stream, revision, event.type, revision === 149]),
    );
    for (const [index, event] of read.entries()) {
      const { event: original } = expected[index]!;
      expect(newEventOf(event)).toEqual({ ...original, metadata: original.metadata ?? {} });
      expect(event.hash).toBe(original.metadata?.hash ?? null);
      expect(event.prevHash).toBe(original.metadata?.prevHash ?? null);
    }
    // The COPY lines are the UTF-8 bytes of the text written, up to the chain fields.
    const text = written.map((lines) => lines.get(daySlot(2))!).join('');
    const copyLines = text
      .split('\n')
      .filter(Boolean)
      .map((line) => Buffer.from(line.split('\t').slice(0, 7).join('\t'), 'utf8'));
    expect(read.map((event) => event.copyLine.equals(copyLines[read.indexOf(event)]!))).toEqual(read.map(() => true));
  });

  it('reads nothing from a slot nothing was spilled into', async () => {
    spill = new SlotSpill(calendar.slots);
    expect(await readAll(spill, daySlot(5))).toEqual([]);
  });

  it('removes its folder when the load is stopped by a signal, and the process still ends by that signal', async () => {
    const module = fileURLToPath(new URL('./seedSpill.ts', import.meta.url));
    const script = `
      const { SlotSpill } = await import(${JSON.stringify(module)});
      const spill = new SlotSpill(4);
      spill.add(new Map([[1, 'a line\\n']]));
      spill.flush();
      console.log(spill.folder);
      setInterval(() => undefined, 1000);`;
    for (const signal of ['SIGTERM', 'SIGINT'] as const) {
      const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
      const folder = await new Promise<string>((resolve) => child.stdout.once('data', (data: Buffer) => resolve(data.toString().trim())));
      expect(readdirSync(folder)).toEqual(['slot-1']);
      const ended = new Promise<NodeJS.Signals | null>((resolve) => child.once('exit', (_code, by) => resolve(by)));
      child.kill(signal);
      expect(await ended).toBe(signal);
      expect(existsSync(folder)).toBe(false);
    }
  }, 30_000);
});
