import { randomUUID } from 'node:crypto';
import { postingEventTypes, streams, trialBalanceOf, type TrialBalance } from '@bank/domain';
import { formatPosition, type EventStore, type RecordedEvent } from '@bank/eventstore';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tamperEvents } from '../../testing/tamperEvents';
import { createTestApp, type SignedIn, type TestApp } from '../../testing/testApp';
import { trialBalanceJson } from './ledgerJson';
import { readLedgerTotals } from './ledgerTotalsQuery';
import { LEDGER_CLOCK_MARGIN_MS, trialBalanceAt } from './trialBalanceAt';

/**
 * The trial balance at an instant, replayed from the log: from the start when no day is closed, from the latest
 * close at or before the instant otherwise (reading only the log after it), with the clock margin. Closes are
 * BusinessDayClosed events appended to the log here (the projector writes them to rm.ledger_days); movements are
 * admin balance edits and staff postings. Counts events read, never time.
 */
let t: TestApp;
let admin: SignedIn;
let auditor: SignedIn;
let customer: SignedIn;
let edits = 0;

async function edit(): Promise<void> {
  edits += 1;
  await request(t.app).put(`/api/user/admin/account/${customer.userId}`).set(admin.auth).send({ savings: 100 + edits, checking: edits, number: customer.accountNumber, reason: `Edit ${edits}` }).expect(200);
  await request(t.app).post(`/api/transaction/admin/${customer.userId}`).set(admin.auth).send({ amount: 1.5, transactionType: 'credit', date: new Date().toISOString(), description: `Posting ${edits}` }).expect(201);
  await t.settle();
}

async function readModelNow(): Promise<TrialBalance> {
  return trialBalanceOf(await readLedgerTotals(t.deps.pool));
}

async function wholeLog(): Promise<RecordedEvent[]> {
  const events: RecordedEvent[] = [];
  for (let page = await t.store.readAll({ limit: 1000 }); page.length > 0; page = await t.store.readAll({ after: page.at(-1)!.position, limit: 1000 })) events.push(...page);
  return events;
}

/** The events a replay to `at` posts: of a posting type, recorded by `at` (at the port's millisecond). */
function postingsBy(log: readonly RecordedEvent[], at: Date): RecordedEvent[] {
  return log.filter((event) => (postingEventTypes as ReadonlySet<string>).has(event.type) && event.created.getTime() <= at.getTime());
}

/** The same store without its filtered read (as EventStoreDB is): the replay reads every event and passes over some. */
function unfiltered(store: EventStore): EventStore {
  return { ...store, readRecorded: undefined, readRecordedSince: undefined };
}

/** The same store reading the log after a close in its order (readRecorded), not by the events' instants. */
function inLogOrder(store: EventStore): EventStore {
  return { ...store, readRecordedSince: undefined };
}

/**
 * An event no projection knows, as if its append had started at `created` (a transaction that waited for a lock
 * is ordered in the log after ones that started later): it posts nothing, only its instant matters here.
 */
async function appendMarker(created: Date): Promise<string> {
  const id = randomUUID();
  await t.store.append(`ledgertest-${randomUUID()}`, [{ id, type: 'LedgerTestMarker', data: {} }], 'no_stream');
  await tamperEvents(t.deps.pool, 'UPDATE eventstore.events SET created = $2 WHERE event_id = $1', [id, created]);
  return id;
}

/**
 * The log up to and including the event `id`, once a reader sees it. A reader of the global log sees only what
 * precedes the oldest transaction still running on the server (the store's visibility fence, docs/eventstore.md),
 * and that can be another database's: until the fence has passed `id`, an event before it may still be hidden.
 */
async function logThrough(id: string): Promise<RecordedEvent[]> {
  for (let pause = 5; ; pause = Math.min(200, pause * 2)) {
    const log = await wholeLog();
    const at = log.findIndex((event) => event.id === id);
    if (at >= 0) return log.slice(0, at + 1);
    await new Promise((resolve) => setTimeout(resolve, pause));
  }
}

let closes = 0;
/** Appends a day close of the log as it stands now, with the read model's totals (plus `extra` cents, to tell them apart). */
async function appendClose(businessDate: string, extraCents = 0n): Promise<{ closedAt: Date; throughPosition: string }> {
  await t.settle();
  // The read model's own position (the store's visible head may lag on a busy server): the totals are as of it.
  const head = (await t.deps.projection.appliedPosition())!;
  const totals = await readLedgerTotals(t.deps.pool);
  const accounts = [...totals].map(([key, account]) => ({
    key,
    debitsCents: String(account.debitsCents + (key === 'cash-at-fed' ? extraCents : 0n)),
    creditsCents: String(account.creditsCents + (key === 'fee-income' ? extraCents : 0n)),
  }));
  const trial = trialBalanceOf(totals);
  const closedAt = new Date();
  closes += 1;
  const data = {
    businessDate,
    closedAt: closedAt.toISOString(),
    throughPosition: formatPosition(head),
    accounts,
    totalDebitsCents: String(trial.totalDebitsCents + extraCents),
    totalCreditsCents: String(trial.totalCreditsCents + extraCents),
    balanced: true,
    journalHash: 'ab'.repeat(32),
    lineCount: closes,
  };
  await t.store.append(streams.businessDays(), [{ id: randomUUID(), type: 'BusinessDayClosed', data, metadata: { occurredAt: closedAt.toISOString() } }], 'any');
  await t.settle();
  return { closedAt, throughPosition: data.throughPosition };
}

beforeAll(async () => {
  t = await createTestApp('ledger_at');
  [admin, auditor, customer] = [await t.staff('admin'), await t.staff('auditor'), await t.customer()];
  await edit();
});

afterAll(async () => {
  await t?.close();
});

describe('the trial balance at an instant', () => {
  it('without a close: the whole log replayed, equal to the read model', async () => {
    const at = new Date();
    const pages: number[] = [];
    const replay = await trialBalanceAt(t.deps.pool, t.store, at, { pageSize: 7, onPage: (events) => pages.push(events) });
    expect(replay.close).toBeUndefined();
    expect(trialBalanceJson(at, replay.trialBalance)).toEqual(trialBalanceJson(at, await readModelNow()));
    // The store sends only the posting events recorded by the instant, seven at a time.
    const log = await wholeLog();
    const posted = postingsBy(log, at).length;
    expect(posted).toBeLessThan(log.length);
    expect(replay.eventsRead).toBe(posted);
    expect(pages.reduce((sum, events) => sum + events, 0)).toBe(posted);
    expect(pages.slice(0, -1).every((events) => events === 7)).toBe(true);
    expect(replay.trialBalance.totalDebitsCents > 0n).toBe(true);
    // A store that cannot filter: every event is read, with the same answer.
    const plain = await trialBalanceAt(t.deps.pool, unfiltered(t.store), at, { pageSize: 7 });
    expect(plain.eventsRead).toBe(log.length);
    expect(plain.trialBalance).toEqual(replay.trialBalance);
  });

  it('counts an event recorded at or before the instant behind one recorded just after it, and stops past the margin', async () => {
    await appendMarker(new Date(Date.now() + LEDGER_CLOCK_MARGIN_MS / 2));
    await edit();
    const expected = await readModelNow();
    const log = await wholeLog();
    const lastPosting = log.filter((event) => event.type === 'StaffTransactionPosted').at(-1)!;
    const at = lastPosting.created;
    const replay = await trialBalanceAt(t.deps.pool, t.store, at);
    expect(replay.trialBalance).toEqual(expected);
    expect((await trialBalanceAt(t.deps.pool, unfiltered(t.store), at)).trialBalance).toEqual(expected);
    // An event recorded far past the instant: the reading stops there, and what follows is never read.
    const before = await logThrough(await appendMarker(new Date(Date.now() + 10 * LEDGER_CLOCK_MARGIN_MS)));
    await edit();
    const stopped = await trialBalanceAt(t.deps.pool, t.store, at);
    expect(stopped.trialBalance).toEqual(expected);
    expect(stopped.eventsRead).toBe(postingsBy(before, at).length);
    const plain = await trialBalanceAt(t.deps.pool, unfiltered(t.store), at);
    expect(plain.trialBalance).toEqual(expected);
    expect(plain.eventsRead).toBe(before.length);
  });

  it('from the latest close at or before the instant: its totals, then only the log after it', async () => {
    const first = await appendClose('2025-01-01');
    await edit();
    // A second close whose totals carry one extra cent on each side: an answer that holds it started from the close.
    const second = await appendClose('2025-01-02', 1n);
    const atSecond = await readModelNow();
    await edit();
    const later = new Date();
    await edit();

    const pages: number[] = [];
    const fromSecond = await trialBalanceAt(t.deps.pool, t.store, later, { onPage: (events) => pages.push(events) });
    expect(fromSecond.close?.businessDate).toBe('2025-01-02');
    expect(formatPosition(fromSecond.close!.throughPosition!)).toBe(second.throughPosition);
    const cashAtFed = fromSecond.trialBalance.rows.find((row) => row.key === 'cash-at-fed')!;
    expect(cashAtFed.debitsCents).toBe(atSecond.rows.find((row) => row.key === 'cash-at-fed')!.debitsCents + 1n);
    expect(fromSecond.trialBalance.totalDebitsCents).toBe(fromSecond.trialBalance.totalCreditsCents);
    // Only the log after the close was read: the posting events of the edits recorded by then, nothing before.
    const log = await wholeLog();
    const afterClose = postingsBy(
      log.filter((event) => formatPosition(event.position) > second.throughPosition),
      later,
    ).length;
    expect(afterClose).toBeGreaterThan(0);
    expect(fromSecond.eventsRead).toBe(afterClose);
    expect(pages.reduce((sum, events) => sum + events, 0)).toBe(afterClose);

    // Between the two closes: the first close, then the log after it up to the instant.
    const between = new Date(second.closedAt.getTime() - 1);
    const fromFirst = await trialBalanceAt(t.deps.pool, t.store, between);
    expect(fromFirst.close?.businessDate).toBe('2025-01-01');
    expect(formatPosition(fromFirst.close!.throughPosition!)).toBe(first.throughPosition);
    expect(fromFirst.trialBalance.totalDebitsCents).toBe(atSecond.totalDebitsCents);
    expect(fromFirst.trialBalance.rows).toEqual(atSecond.rows);

    // Over HTTP: the same.
    const res = await request(t.app).get('/api/audit/ledger/trial-balance').query({ at: later.toISOString() }).set(auditor.auth).expect(200);
    expect(res.body.data).toEqual(trialBalanceJson(later, fromSecond.trialBalance));
  });

  it('lists the day closes newest first, a page at a time', async () => {
    const all = await request(t.app).get('/api/audit/ledger/days').set(auditor.auth).expect(200);
    expect(all.body.next).toBeNull();
    expect(all.body.data.map((day: { businessDate: string }) => day.businessDate)).toEqual(['2025-01-02', '2025-01-01']);
    expect(Object.keys(all.body.data[0]).sort()).toEqual(['balanced', 'businessDate', 'closedAt', 'journalHash', 'totalCredits', 'totalDebits']);
    expect(all.body.data[0]).toMatchObject({ balanced: true, journalHash: 'ab'.repeat(32) });
    const first = await request(t.app).get('/api/audit/ledger/days').query({ limit: 1 }).set(auditor.auth).expect(200);
    expect(first.body.data).toEqual(all.body.data.slice(0, 1));
    const second = await request(t.app).get('/api/audit/ledger/days').query({ limit: 1, cursor: first.body.next }).set(auditor.auth).expect(200);
    expect(second.body.data).toEqual(all.body.data.slice(1, 2));
    expect(second.body.next).toBeNull();
    // Past the end: an empty last page.
    const past = Buffer.from(JSON.stringify({ businessDate: '2025-01-01' })).toString('base64url');
    const third = await request(t.app).get('/api/audit/ledger/days').query({ limit: 1, cursor: past }).set(auditor.auth).expect(200);
    expect(third.body).toEqual({ data: [], next: null });
  });

  it('starts from a close only once the log recorded it, whatever instant it states', async () => {
    await edit();
    const expected = await readModelNow();
    // A close stating an instant before the one the log recorded it at (as a history appended after the fact is):
    // it covers the log as it stood when recorded, so before then the answer comes from the close before it.
    const late = await appendClose('2025-01-03', 5n);
    const recordedAt = new Date(late.closedAt.getTime() + 60_000);
    await tamperEvents(t.deps.pool, `UPDATE eventstore.events SET created = $1 WHERE stream_id = $2 AND type = 'BusinessDayClosed' AND data->>'businessDate' = '2025-01-03'`, [recordedAt, streams.businessDays()]);
    await t.deps.pool.query(`UPDATE rm.ledger_days SET recorded_at = $1 WHERE business_date = '2025-01-03'`, [recordedAt]);
    const at = new Date(late.closedAt.getTime() + 1);
    const before = await trialBalanceAt(t.deps.pool, t.store, at);
    expect(before.close?.businessDate).toBe('2025-01-02');
    // The second close's extra cent, and none of this one's five.
    const cashAtFed = (balance: TrialBalance) => balance.rows.find((row) => row.key === 'cash-at-fed')!.debitsCents;
    expect(cashAtFed(before.trialBalance)).toBe(cashAtFed(expected) + 1n);
    const after = await trialBalanceAt(t.deps.pool, t.store, new Date(recordedAt.getTime() + 1));
    expect(after.close?.businessDate).toBe('2025-01-03');
    expect(cashAtFed(after.trialBalance)).toBe(cashAtFed(expected) + 5n);
  });

  it('from a close, reads the day by its events\' instants: late ones counted, the answer of the read in log order', async () => {
    const close = await appendClose('2025-01-04');
    await edit();
    const at = new Date();
    // Recorded after the instant (within the margin), then postings the log has after it but recorded before the
    // instant (as appends that waited for a lock), then postings recorded after the instant.
    const marker = await appendMarker(new Date(at.getTime() + LEDGER_CLOCK_MARGIN_MS / 2));
    await edit();
    const { rows } = await t.deps.pool.query<{ position: string }>('SELECT global_position::text AS position FROM eventstore.events WHERE event_id = $1', [marker]);
    const moved = await tamperEvents(t.deps.pool, 'UPDATE eventstore.events SET created = $1 WHERE global_position > $2::bigint AND type = ANY ($3::text[])', [
      new Date(at.getTime() - 1),
      rows[0]!.position,
      [...postingEventTypes],
    ]);
    expect(moved.rowCount).toBeGreaterThan(0);
    await edit();
    const log = await wholeLog();
    const expected = postingsBy(
      log.filter((event) => formatPosition(event.position) > close.throughPosition),
      at,
    ).length;

    const pages: number[] = [];
    const byInstant = await trialBalanceAt(t.deps.pool, t.store, at, { onPage: (events) => pages.push(events) });
    expect(byInstant.close?.businessDate).toBe('2025-01-04');
    expect(byInstant.eventsRead).toBe(expected);
    expect(pages).toEqual([expected]);
    const ordered = await trialBalanceAt(t.deps.pool, inLogOrder(t.store), at);
    expect(ordered.eventsRead).toBe(expected);
    expect(byInstant.trialBalance).toEqual(ordered.trialBalance);
    expect(byInstant.trialBalance.totalDebitsCents).toBe(byInstant.trialBalance.totalCreditsCents);
  });

  it('from a close, reads no further in the log than the first close made past the instant and twice the margin', async () => {
    await appendClose('2025-01-05');
    await edit();
    const at = new Date();
    // A close stated and recorded well past the instant, then postings after it in the log whose instants say
    // "before the instant": a log whose order and instants disagree by more than the margin, which the read by
    // instant does not look for past that close.
    const bound = await appendClose('2025-01-06');
    const past = new Date(at.getTime() + 3 * LEDGER_CLOCK_MARGIN_MS);
    await t.deps.pool.query(`UPDATE rm.ledger_days SET closed_at = $1, recorded_at = $1 WHERE business_date = '2025-01-06'`, [past]);
    const expected = await trialBalanceAt(t.deps.pool, t.store, at);
    expect(expected.close?.businessDate).toBe('2025-01-05');
    expect(expected.eventsRead).toBeGreaterThan(0);
    await edit();
    const stray = await tamperEvents(t.deps.pool, 'UPDATE eventstore.events SET created = $1 WHERE global_position > $2::bigint AND type = ANY ($3::text[])', [
      new Date(at.getTime() - 1),
      bound.throughPosition.split(':')[1],
      [...postingEventTypes],
    ]);
    expect(stray.rowCount).toBeGreaterThan(0);

    const bounded = await trialBalanceAt(t.deps.pool, t.store, at);
    expect(bounded.eventsRead).toBe(expected.eventsRead);
    expect(bounded.trialBalance).toEqual(expected.trialBalance);
    // Read in log order, nothing but the margin's end bounds the read: the stray postings count.
    const ordered = await trialBalanceAt(t.deps.pool, inLogOrder(t.store), at);
    expect(ordered.eventsRead).toBe(expected.eventsRead + stray.rowCount!);
  });
});
