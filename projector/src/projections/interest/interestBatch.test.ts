import { describe, expect, it } from 'vitest';
import { readModelTables } from '../../schema/readModelTables';
import { InterestBatch, type InterestMoney } from './interestBatch';

const tables = readModelTables('rm');
const ANA = '00000000-0000-4000-8000-0000000000a1';
const BEN = '00000000-0000-4000-8000-0000000000b2';

const money = (userId: string, businessDate: string, balanceAfterCents: number, position: string): InterestMoney => ({
  userId,
  account: 'savings',
  businessDate,
  balanceAfterCents,
  position,
});

/** The statement that writes day balances into the table, if any. */
const dayBalanceInserts = (batch: InterestBatch) => batch.statements(tables).filter((s) => s.text.includes(`INSERT INTO ${tables.interestDayBalances}`));

/** The accrual statement's held day balances: user ids, dates, balances, positions and dated flags, as passed. */
function heldOfAccrual(batch: InterestBatch): unknown[][] {
  const accrual = batch.statements(tables).find((s) => s.text.includes(`INSERT INTO ${tables.interestDays}`));
  expect(accrual).toBeDefined();
  return accrual!.values!.slice(4) as unknown[][];
}

describe('the interest batch hands its day balances over to the next batch of a rebuild', () => {
  it('writes the day balances no accrual of the batch folds, unless it hands them over', () => {
    const written = new InterestBatch();
    written.money(money(ANA, '2028-01-02', 100, '00000000000000000010'));
    expect(dayBalanceInserts(written)).toHaveLength(1);

    const handing = new InterestBatch();
    handing.money(money(ANA, '2028-01-02', 100, '00000000000000000010'));
    expect(handing.handOver()).toBeDefined();
    expect(dayBalanceInserts(handing)).toEqual([]);
    // Asked again (a batch written again with upserts), the statements are the same.
    expect(handing.statements(tables)).toEqual(handing.statements(tables));
  });

  it('gives what it took over to its accrual first, in the log’s order, dated as the batch before dated them', () => {
    const first = new InterestBatch();
    first.money(money(ANA, '2028-01-01', 100, '00000000000000000010'));
    first.accrued('2028-01-01', 50_000, 0, '00000000000000000011');
    // After the accrual of the 1st: dated the 2nd, though its business date is the 1st (the COB's own money).
    first.money(money(BEN, '2028-01-01', 200, '00000000000000000012'));
    const handed = first.handOver();
    expect(handed).toBeDefined();

    const second = new InterestBatch();
    second.takeOver(handed);
    // Before the second batch's first accrual: not dated here (the accrual's statement dates it).
    second.money(money(ANA, '2028-01-02', 150, '00000000000000000013'));
    second.accrued('2028-01-02', 50_000, 0, '00000000000000000014');
    expect(heldOfAccrual(second)).toEqual([
      [BEN, ANA],
      ['savings', 'savings'],
      ['2028-01-02', '2028-01-02'],
      [200, 150],
      ['00000000000000000012', '00000000000000000013'],
      [true, false],
    ]);
    expect(dayBalanceInserts(second)).toEqual([]);
  });

  it('hands over again what no accrual of the next batch folds, whatever was taken over', () => {
    const first = new InterestBatch();
    first.money(money(ANA, '2028-01-03', 100, '00000000000000000010'));
    const second = new InterestBatch();
    second.takeOver(first.handOver());
    second.money(money(BEN, '2028-01-03', 300, '00000000000000000011'));
    const third = new InterestBatch();
    third.takeOver(second.handOver());
    // The last batch of the load writes them: nothing after it to hand them to.
    const [insert] = dayBalanceInserts(third);
    expect(insert!.values).toEqual([[ANA, BEN], ['savings', 'savings'], ['2028-01-03', '2028-01-03'], [100, 300], ['00000000000000000010', '00000000000000000011']]);
  });

  it('past its limit writes the day balances left instead of handing them over', () => {
    const batch = new InterestBatch(2);
    for (let i = 0; i < 3; i += 1) batch.money(money(ANA, '2028-01-02', 100 + i, `0000000000000000002${i}`));
    expect(batch.handOver()).toBeUndefined();
    expect(dayBalanceInserts(batch)).toHaveLength(1);
    const small = new InterestBatch(2);
    small.money(money(ANA, '2028-01-02', 100, '00000000000000000020'));
    small.money(money(BEN, '2028-01-02', 100, '00000000000000000021'));
    expect(small.handOver()).toBeDefined();
  });

  it('takes over a large bank’s day of day balances', () => {
    const day = new InterestBatch();
    for (let i = 0; i < 300_000; i += 1) day.money(money(ANA, '2028-01-02', i, String(i).padStart(20, '0')));
    const next = new InterestBatch();
    next.takeOver(day.handOver());
    const [insert] = dayBalanceInserts(next);
    expect((insert!.values![4] as string[]).length).toBe(300_000);
  });

  it('walks its steps once for the hand-over and the statements, and again when an event or a take-over came since', () => {
    const batch = new InterestBatch();
    batch.money(money(ANA, '2028-01-02', 100, '00000000000000000030'));
    expect(dayBalanceInserts(batch)[0]!.values![0]).toEqual([ANA]);
    batch.money(money(BEN, '2028-01-02', 200, '00000000000000000031'));
    expect(dayBalanceInserts(batch)[0]!.values![0]).toEqual([ANA, BEN]);
    batch.accrued('2028-01-02', 50_000, 0, '00000000000000000032');
    expect(dayBalanceInserts(batch)).toEqual([]);
    expect(heldOfAccrual(batch)[0]).toEqual([ANA, BEN]);

    const before = new InterestBatch();
    before.money(money(BEN, '2028-01-01', 50, '00000000000000000029'));
    const taking = new InterestBatch();
    taking.money(money(ANA, '2028-01-02', 100, '00000000000000000030'));
    expect(dayBalanceInserts(taking)[0]!.values![0]).toEqual([ANA]);
    taking.takeOver(before.handOver());
    expect(dayBalanceInserts(taking)[0]!.values![0]).toEqual([BEN, ANA]);
    // The walk the hand-over made is the one the statements then write from.
    expect(taking.handOver()).toBeDefined();
    expect(dayBalanceInserts(taking)).toEqual([]);
  });

  it('leaves what it took over as it was: taken over again (a batch written again), it gives the same statements', () => {
    const first = new InterestBatch();
    // Undated (no accrual before it in its batch), with a business date after the next batch's accrual.
    first.money(money(ANA, '2028-01-03', 100, '00000000000000000040'));
    first.money(money(BEN, '2028-01-02', 200, '00000000000000000041'));
    const handed = first.handOver();
    const taking = () => {
      const batch = new InterestBatch();
      batch.takeOver(handed);
      batch.accrued('2028-01-02', 50_000, 0, '00000000000000000042');
      return batch;
    };
    const once = taking();
    expect(heldOfAccrual(once)).toEqual([[BEN], ['savings'], ['2028-01-02'], [200], ['00000000000000000041'], [false]]);
    const onHanded = once.handOver();
    // The one its accrual does not fold is handed on dated (its business date is its effective date now)...
    const next = new InterestBatch();
    next.takeOver(onHanded);
    next.accrued('2028-01-03', 50_000, 0, '00000000000000000043');
    expect(heldOfAccrual(next)).toEqual([[ANA], ['savings'], ['2028-01-03'], [100], ['00000000000000000040'], [true]]);
    // ...while the hand-over it came from still has it undated: the batch again gives what it gave the first time.
    const again = taking();
    expect(again.statements(tables)).toEqual(taking().statements(tables));
    const againNext = new InterestBatch();
    againNext.takeOver(again.handOver());
    againNext.accrued('2028-01-03', 50_000, 0, '00000000000000000043');
    expect(againNext.statements(tables)).toEqual(next.statements(tables));
    const retaken = new InterestBatch();
    retaken.takeOver(handed);
    retaken.accrued('2028-01-03', 50_000, 0, '00000000000000000042');
    expect(heldOfAccrual(retaken)).toEqual([[ANA, BEN], ['savings', 'savings'], ['2028-01-03', '2028-01-02'], [100, 200], ['00000000000000000040', '00000000000000000041'], [false, false]]);
  });

  it('hands on what it took over without copying it: a day spread over many batches costs each batch its own events', () => {
    type Chunks = { readonly chunks: readonly (readonly unknown[])[]; readonly size: number };
    let handed: Chunks | undefined;
    const firstChunks: (readonly unknown[])[] = [];
    for (let b = 0; b < 6; b += 1) {
      const batch = new InterestBatch();
      if (handed) batch.takeOver(handed);
      for (let i = 0; i < 1_000; i += 1) batch.money(money(ANA, '2028-01-02', i, String(b * 1_000 + i).padStart(20, '0')));
      handed = batch.handOver() as Chunks;
      // The batches' chunks before are handed on as they were taken over: the same arrays, not copies of them.
      expect(handed.chunks.slice(0, b)).toEqual(firstChunks);
      handed.chunks.slice(0, b).forEach((chunk, c) => expect(chunk).toBe(firstChunks[c]));
      firstChunks.push(handed.chunks[b]!);
      expect(handed.size).toBe((b + 1) * 1_000);
    }
  });

  it('takes over only what an interest batch handed over', () => {
    expect(() => new InterestBatch().takeOver([{ userId: ANA }])).toThrow(TypeError);
  });
});
