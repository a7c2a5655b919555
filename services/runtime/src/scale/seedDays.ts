/**
 * The second pass of a generated bank (seedBank.ts): the history written day by day, as the bank would have
 * recorded it. The business calendar starts on the history's first date (manual mode); then for each day: every
 * customer's events of that day (the slot's spilled lines, in customer order), and that day's close of business as
 * the COB writes it (cobPipeline.ts, interestStep.ts): the standing-order and ACH steps (nothing to do: the generated
 * bank has neither; their summaries of nothing done), the interest accrual and its booking with the day's totals over every account (the first
 * pass's), on a month's last day the payments (spilled in the payment slot) and the month's close, the interest step
 * recorded, and the day close computed by the bank's own fold (startDayClose, computeDayClose's) over the log as
 * written: the events the bulk path wrote since the last close with the positions and instants it gave them, or the
 * store's log read back after a commit on the appends path. The businessDays stream is decided by the domain's businessDayDecider, with the
 * COB's own command ids and metadata.
 */
import { computeDayClose, startDayClose, type DayCloseEvent } from '@bank/books';
import type { CommandContext } from '@bank/commands';
import { businessDayDecider, isLastDayOfMonth, monthOf, postingEventTypes, streams, type BankEventType, type BusinessDayClose, type BusinessDayCommand } from '@bank/domain';
import { comparePositions, type EventMetadata, type EventStore, type Position } from '@bank/eventstore';
import type { KeyringKey } from '@bank/platform';
import type { GeneratedPart, SeedBankResult } from './seedBank';
import { daySlot, paymentSlot, type SeedCalendar } from './seedCalendar';
import { newEventOf, type SlotSpill, type SpilledEvent } from './seedSpill';
import { SeedStream, type RecordedAt, type SeedSink, type WrittenEvent } from './seedStream';

/** A written event as the day close reads it from the log: the `created` the store answers is to the millisecond. */
function dayCloseEventOf(written: WrittenEvent): DayCloseEvent {
  const event = newEventOf(written.spilled);
  return {
    position: written.position,
    type: event.type,
    streamId: written.spilled.stream,
    data: event.data,
    metadata: event.metadata as EventMetadata,
    created: new Date(Math.floor(written.recordedAtMicros / 1000)),
  };
}

/** Spilled events handed to the sink at a time. */
const BATCH = 2_000;
/** Streams appended at once on the store's path (its append batcher groups them in one transaction). */
const APPENDS_IN_FLIGHT = 16;

export interface SeedDaysDeps {
  readonly store: EventStore;
  readonly sink: SeedSink;
  readonly chainKey: KeyringKey | undefined;
  readonly calendar: SeedCalendar;
  /** After each day: the days written, and the events so far. */
  readonly onDay?: (done: { readonly days: number; readonly events: number }) => void;
}

export async function seedDays(generated: GeneratedPart, spill: SlotSpill, deps: SeedDaysDeps): Promise<SeedBankResult> {
  const { sink, store, calendar } = deps;
  let events = 0;
  let position: Position | undefined;
  const reached = (last: Position | undefined) => {
    if (last && (!position || comparePositions(last, position) > 0)) position = last;
  };

  /**
   * A slot's events, in order: consecutive events of one stream are one append on the store's path. `recordedAt`:
   * the instant of the slot's `index`-th event (µs).
   */
  const writeSlot = async (slot: number, recordedAt: RecordedAt) => {
    let batch: SpilledEvent[] = [];
    let written = 0;
    const write = async () => {
      const from = written;
      if (sink.appendSpilled) reached(await sink.appendSpilled(batch, (index) => recordedAt(from + index)));
      else {
        // A stream's events of one slot are one run (one customer's); the runs are appended APPENDS_IN_FLIGHT at a
        // time, so the store batches them.
        const runs: SpilledEvent[][] = [];
        for (let start = 0; start < batch.length; ) {
          let end = start + 1;
          while (end < batch.length && batch[end]!.stream === batch[start]!.stream) end += 1;
          runs.push(batch.slice(start, end));
          start = end;
        }
        let next = 0;
        const lane = async () => {
          for (let run = runs[next++]; run; run = runs[next++]) reached(await sink.append(run[0]!.stream, run.map(newEventOf), run[0]!.revision, run.at(-1)!.final));
        };
        await Promise.all(Array.from({ length: APPENDS_IN_FLIGHT }, lane));
      }
      events += batch.length;
      written += batch.length;
      batch = [];
    };
    for await (const event of spill.read(slot)) {
      batch.push(event);
      if (batch.length >= BATCH) await write();
    }
    await write();
  };

  const days = new SeedStream(streams.businessDays(), businessDayDecider, deps.chainKey, calendar);
  // A store holds one generated history: a calendar stored already must be this one (a load being finished).
  const stored = await store.readStream(days.stream);
  let written = 0;
  /** The businessDays stream's events decided since the last call. */
  const writeBusinessDays = async (final = false) => {
    for (let revision = written; revision < Math.min(days.events.length, stored.length); revision += 1) {
      const [mine, theirs] = [days.events[revision]!, stored[revision]!];
      // The hash covers the event's data and every event before it in the stream.
      if (mine.id !== theirs.id || mine.metadata?.hash !== theirs.metadata.hash) {
        throw new Error(`The store holds another business calendar (${theirs.type} at revision ${revision} of ${days.stream}): a generated bank is loaded into a database of its own`);
      }
    }
    for (const segment of days.segments(written)) {
      // Each recorded at the instant its command ran (the calendar's start, the COB's).
      const instants = segment.events.map((event) => Date.parse(String(event.metadata?.occurredAt)) * 1000);
      reached(await sink.append(days.stream, segment.events, segment.fromRevision, final && segment.last, (index) => instants[index]!));
    }
    events += days.events.length - written;
    written = days.events.length;
  };
  const record = (command: BusinessDayCommand, commandId: string, day: number, correlation = true) => {
    const context: CommandContext = { commandId, metadata: { actorRole: 'system', ...(correlation ? { correlationId: `cob:${calendar.date(day)}` } : {}) } };
    days.command(command, context, calendar.cobInstant(day), daySlot(day));
  };

  /**
   * The day's close, by the bank's own fold (startDayClose, what the COB's computeDayClose runs over the log): over
   * the events the sink wrote since the last close, with the positions and instants the log records them at, when
   * the sink knows them before it commits (the bulk path); else read back from the store once committed, as the COB
   * does. A load being finished takes a close it stored already (the log now reaches past that day).
   */
  const closeDay = async (previous: BusinessDayClose | null, date: string, now: string): Promise<BusinessDayClose> => {
    if (sink.takeWritten) {
      const fold = startDayClose(previous);
      for (const written of await sink.takeWritten()) {
        if (postingEventTypes.has(written.spilled.type as BankEventType)) fold.add(dayCloseEventOf(written));
        else fold.pass(written.position);
      }
      return fold.result(date, now).data;
    }
    await sink.commit?.();
    const storedClose = stored[days.events.length];
    if (storedClose?.type === 'BusinessDayClosed' && storedClose.data.businessDate === date) return storedClose.data as BusinessDayClose;
    return (await computeDayClose(store, previous, date, now, { atLeast: position! })).data;
  };

  const start = calendar.cobInstant(-1);
  days.command({ type: 'StartBusinessCalendar', firstDate: calendar.firstDate, mode: 'manual', now: start }, { commandId: 'business-days:start', metadata: { actorRole: 'system' } }, start, 0);
  await writeBusinessDays();

  let previous: BusinessDayClose | null = null;
  const { interest } = generated;
  let interestPayments = 0;
  let interestPaidCents = 0n;
  for (let day = 0; day < calendar.days; day += 1) {
    const date = calendar.date(day);
    const now = calendar.cobInstant(day);
    // The day's events are recorded in the log's order just before its close, a microsecond apart (they occurred
    // during the day, in another order: customer by customer), so that the log's recorded instants never go back.
    const closeMicros = Date.parse(now) * 1000;
    const dayEvents = spill.count(daySlot(day));
    await writeSlot(daySlot(day), (index) => closeMicros - (dayEvents - index));
    // What the worker's steps record on a bank with no standing order and no ACH file (standingOrdersStep.ts, settleAchFiles).
    record({ type: 'CompleteCobStep', businessDate: date, step: 'standingOrders', now, summary: { paid: 0, failed: 0, missed: 0 } }, `cob:${date}:standingOrders`, day);
    record({ type: 'CompleteCobStep', businessDate: date, step: 'achSettlement', now, summary: { files: 0, entries: 0, skipped: 0 } }, `cob:${date}:achSettlement`, day);
    record({ type: 'AccrueInterest', businessDate: date, rates: calendar.rates(day), now }, `interest:${date}:accrue`, day);
    const summary: Record<string, number> = { accounts: interest.accounts[day]!, bookedCents: Number(interest.bookedCents[day]!) };
    record(
      { type: 'BookInterest', businessDate: date, accounts: interest.accounts[day]!, accruedUnits: String(interest.accruedUnits[day]!), bookedCents: Number(interest.bookedCents[day]!), now },
      `interest:${date}:book`,
      day,
    );
    await writeBusinessDays();
    if (isLastDayOfMonth(date)) {
      await writeSlot(paymentSlot(day), () => closeMicros);
      const paidAccounts = interest.paidAccounts[day]!;
      const paidCents = interest.paidCents[day]!;
      record({ type: 'CloseInterestMonth', businessDate: date, paidAccounts, paidCents: String(paidCents), now }, `interest:${monthOf(date)}:close`, day);
      summary.paidAccounts = paidAccounts;
      summary.paidCents = Number(paidCents);
      interestPayments += paidAccounts;
      interestPaidCents += paidCents;
    }
    record({ type: 'CompleteCobStep', businessDate: date, step: 'interest', now, summary }, `cob:${date}:interest`, day);
    await writeBusinessDays();
    const close = await closeDay(previous, date, now);
    record({ type: 'CloseBusinessDay', close }, `cob:${date}:close`, day);
    // The stream's last event closes the history's last day (the streams table's row goes with it on the bulk path).
    await writeBusinessDays(day === calendar.days - 1);
    previous = close;
    deps.onDay?.({ days: day + 1, events });
  }
  await sink.commit?.();
  return { ...generated, events, position, interestPayments, interestPaidCents, businessDays: calendar.days };
}
