import { describe, expect, it } from 'vitest';
import { foldEvents } from '../../decider';
import { uuid } from '../../testing/fixtures';
import { parseNachaFile } from '../nacha/parseNacha';
import { achCycleDecider, unfileableEntries, type AchCycleCommand, type AchCycleEvent } from './achCycleDecider';
import { achCycleSnapshot, type AchCycleState, type WaitingEntry } from './achCycleState';

const settings = {
  bankRoutingNumber: '102000021',
  bankName: 'Summit Bank',
  destinationRoutingNumber: '011000015',
  destinationName: 'Federal Reserve Bank',
  companyIdentification: '1102000021',
  entryDescription: 'TRANSFER',
};
const sha256 = (text: string): string => String(text.length).padStart(64, '0');
const NOW = '2026-11-25T17:05:00.000Z';

function entry(n: number, amountCents = 1000 + n): WaitingEntry {
  return { transferId: uuid(700 + n), amountCents, routingNumber: '021000021', accountNumber: `40001234${n}`, name: `Payee ${n}`, transactionCode: 22, payerId: uuid(1), account: 'savings' };
}

function fold(events: readonly AchCycleEvent[]): AchCycleState {
  return foldEvents(achCycleDecider.evolve, achCycleDecider.initialState, events);
}

function decide(command: AchCycleCommand, events: AchCycleEvent[]): AchCycleEvent[] {
  const produced = achCycleDecider.decide(command, fold(events));
  events.push(...produced);
  return produced;
}

const build = (fileId: string, businessDate = '2026-11-25'): AchCycleCommand => ({ type: 'BuildAchFile', fileId, businessDate, settings, sha256, now: NOW });

describe('the ACH file stream', () => {
  it('builds one file from every waiting entry, effective the next banking day, with trace numbers from the sequence', () => {
    const log: AchCycleEvent[] = [];
    for (const n of [1, 2, 3]) decide({ type: 'QueueAchEntry', entry: entry(n), now: NOW }, log);
    decide({ type: 'QueueAchEntry', entry: entry(1), now: NOW }, log);
    expect(log).toHaveLength(3);
    const [file] = decide(build(uuid(801)), log);
    expect(file?.type).toBe('AchFileBuilt');
    if (file?.type !== 'AchFileBuilt') throw new Error('expected a file');
    // Wednesday before Thanksgiving: effective Friday
    expect(file.data).toMatchObject({ effectiveDate: '2026-11-27', totalCreditCents: 1001 + 1002 + 1003, totalDebitCents: 0, nextTraceSequence: 4 });
    expect(file.data.entries.map((e) => e.traceNumber)).toEqual(['102000020000001', '102000020000002', '102000020000003']);
    const parsed = parseNachaFile(file.data.text);
    expect(parsed.batches[0]?.entries.map((e) => e.amountCents)).toEqual([1001, 1002, 1003]);
    expect(file.data.sha256).toBe(sha256(file.data.text));
    // nothing waits any more; a queued entry already filed is not queued again
    expect(decide(build(uuid(802)), log)).toEqual([]);
    expect(decide({ type: 'QueueAchEntry', entry: entry(2), now: NOW }, log)).toEqual([]);
    // the next file continues the trace sequence
    decide({ type: 'QueueAchEntry', entry: entry(4), now: NOW }, log);
    const [second] = decide(build(uuid(803)), log);
    expect(second?.type === 'AchFileBuilt' && second.data.entries.map((e) => e.traceNumber)).toEqual(['102000020000004']);
  });

  it('refuses to queue an entry no file can hold, so that it cannot stop the others', () => {
    const log: AchCycleEvent[] = [];
    const refusal = (bad: Partial<WaitingEntry>) => {
      try {
        decide({ type: 'QueueAchEntry', entry: { ...entry(1), ...bad }, now: NOW }, log);
      } catch (error) {
        return (error as { code?: string }).code;
      }
      return 'queued';
    };
    expect(refusal({ routingNumber: '' })).toBe('invalid_routing_number');
    expect(refusal({ routingNumber: '021000022' })).toBe('invalid_routing_number');
    expect(refusal({ accountNumber: '123456789012345678' })).toBe('invalid_external_account');
    expect(refusal({ accountNumber: '12345é' })).toBe('invalid_external_account');
    expect(log).toEqual([]);
  });

  it('an entry queued before that check, which no file can hold, stays waiting while the others are filed', () => {
    const log: AchCycleEvent[] = [];
    decide({ type: 'QueueAchEntry', entry: entry(1), now: NOW }, log);
    // As a store written before the check holds it: the event appended without the decider's refusal.
    const stale = { ...entry(2), accountNumber: '1234567890123456789' };
    log.push({ type: 'AchEntryQueued', data: { ...stale, queuedAt: NOW } });
    decide({ type: 'QueueAchEntry', entry: entry(3), now: NOW }, log);
    const [file] = decide(build(uuid(804)), log);
    expect(file?.type === 'AchFileBuilt' && file.data.entries.map((e) => e.transferId)).toEqual([entry(1).transferId, entry(3).transferId]);
    const state = fold(log);
    expect([...state.waiting].map(([transferId]) => transferId)).toEqual([stale.transferId]);
    expect(unfileableEntries(state)).toEqual([{ transferId: stale.transferId, problem: 'invalid_external_account' }]);
    // Nothing else waits: no empty file is built for it.
    expect(decide(build(uuid(805)), log)).toEqual([]);
  });

  it('two builders deciding on the same state: the second, decided again after the first is stored, finds nothing waiting', () => {
    const log: AchCycleEvent[] = [];
    for (const n of [1, 2]) decide({ type: 'QueueAchEntry', entry: entry(n), now: NOW }, log);
    const state = fold(log);
    const first = achCycleDecider.decide(build(uuid(811)), state);
    const second = achCycleDecider.decide(build(uuid(812)), state);
    expect(first).toHaveLength(1);
    expect(second).toHaveLength(1);
    // the store takes the first (expected revision); the second conflicts and is decided again
    log.push(...first);
    expect(achCycleDecider.decide(build(uuid(812)), fold(log))).toEqual([]);
  });

  it('settles a file once, from its effective date, listing the returns it carried', () => {
    const log: AchCycleEvent[] = [];
    decide({ type: 'QueueAchEntry', entry: entry(1), now: NOW }, log);
    decide(
      { type: 'RecordAchIncomingReturn', returnId: uuid(900), traceNumber: '011000010000077', reasonCode: 'R03', amountCents: 250_000, routingNumber: '011000015', accountNumber: '55-1234', name: 'Payroll Inc', transactionCode: 22, businessDate: '2026-11-25', now: NOW },
      log,
    );
    const [file] = decide(build(uuid(821)), log);
    if (file?.type !== 'AchFileBuilt') throw new Error('expected a file');
    expect(file.data.entries[1]).toMatchObject({ transactionCode: 21, returnOf: { reasonCode: 'R03', originalTraceNumber: '011000010000077' } });
    expect(parseNachaFile(file.data.text).batches[0]?.entries[1]?.addenda).toMatchObject({ type: '99', returnReasonCode: 'R03', originalTraceNumber: '011000010000077' });
    expect(() => decide({ type: 'SettleAchFile', fileId: uuid(821), businessDate: '2026-11-26', now: NOW }, log)).toThrow('not yet effective');
    const [settled] = decide({ type: 'SettleAchFile', fileId: uuid(821), businessDate: '2026-11-27', now: NOW }, log);
    expect(settled).toMatchObject({ type: 'AchFileSettled', data: { returns: [{ transferId: uuid(900), amountCents: 250_000 }] } });
    expect(decide({ type: 'SettleAchFile', fileId: uuid(821), businessDate: '2026-11-28', now: NOW }, log)).toEqual([]);
  });

  it('applies a return and an incoming entry once by trace number; a return of an unknown trace is refused', () => {
    const log: AchCycleEvent[] = [];
    decide({ type: 'QueueAchEntry', entry: entry(1), now: NOW }, log);
    decide(build(uuid(831)), log);
    const ret: AchCycleCommand = { type: 'RecordAchReturn', originalTraceNumber: '102000020000001', reasonCode: 'R01', afterSettlement: false, businessDate: '2026-11-26', now: NOW };
    expect(decide(ret, log)).toMatchObject([{ type: 'AchReturnApplied', data: { transferId: uuid(701), amountCents: 1001 } }]);
    expect(decide(ret, log)).toEqual([]);
    expect(() => decide({ ...ret, originalTraceNumber: '102000020000009' } as AchCycleCommand, log)).toThrow('trace number');
    const credit: AchCycleCommand = { type: 'RecordAchIncomingCredit', traceNumber: '011000010000001', customerId: uuid(1), account: 'checking', amountCents: 500, transactionId: uuid(950), businessDate: '2026-11-26', now: NOW };
    expect(decide(credit, log)).toHaveLength(1);
    expect(decide(credit, log)).toEqual([]);
  });

  it('a snapshot taken after any event decides and folds on exactly as the log it came from', () => {
    const log: AchCycleEvent[] = [];
    const commands: AchCycleCommand[] = [
      { type: 'QueueAchEntry', entry: entry(1), now: NOW },
      { type: 'QueueAchEntry', entry: entry(2), now: NOW },
      { type: 'RecordAchIncomingReturn', returnId: uuid(900), traceNumber: '011000010000077', reasonCode: 'R03', amountCents: 250_000, routingNumber: '011000015', accountNumber: '55-1234', name: 'Payroll Inc', transactionCode: 22, businessDate: '2026-11-25', now: NOW },
      build(uuid(841)),
      { type: 'RecordAchReturn', originalTraceNumber: '102000020000001', reasonCode: 'R01', afterSettlement: false, businessDate: '2026-11-26', now: NOW },
      { type: 'RecordAchIncomingCredit', traceNumber: '011000010000001', customerId: uuid(1), account: 'checking', amountCents: 500, transactionId: uuid(950), businessDate: '2026-11-26', now: NOW },
      { type: 'QueueAchEntry', entry: entry(3), now: NOW },
      { type: 'SettleAchFile', fileId: uuid(841), businessDate: '2026-11-27', now: NOW },
    ];
    for (const command of commands) decide(command, log);
    // Every command again, and a new file: what each decides is the same from the fold and from a snapshot.
    const probes: AchCycleCommand[] = [...commands, build(uuid(842)), { type: 'QueueAchEntry', entry: entry(4), now: NOW }];
    const outcome = (state: AchCycleState, command: AchCycleCommand): unknown => {
      try {
        return achCycleDecider.decide(command, state);
      } catch (error) {
        return (error as Error).message;
      }
    };
    for (let cut = 0; cut <= log.length; cut += 1) {
      const folded = fold(log.slice(0, cut));
      const restored = achCycleSnapshot.decode(JSON.parse(JSON.stringify(achCycleSnapshot.encode(fold(log.slice(0, cut))))));
      expect(achCycleSnapshot.encode(restored)).toEqual(achCycleSnapshot.encode(folded));
      for (const probe of probes) expect(outcome(restored, probe)).toEqual(outcome(folded, probe));
      const onward = foldEvents(achCycleDecider.evolve, restored, log.slice(cut));
      expect(achCycleSnapshot.encode(onward)).toEqual(achCycleSnapshot.encode(fold(log)));
    }
    expect(() => achCycleSnapshot.decode({ fileCount: 1 })).toThrow('Not an encoded ACH file stream state');
  });
});
