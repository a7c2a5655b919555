import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createCommandHandler } from '@bank/commands';
import {
  accountDecider,
  addEntryToTotals,
  emptyLedgerTotals,
  journalEntryOf,
  parseEvent,
  streams,
  transferInput,
  trialBalanceOf,
  writeNachaFile,
  type EntryDetail,
} from '@bank/domain';
import { comparePositions, type RecordedEvent } from '@bank/eventstore';
import { migrateReadModels } from '@bank/projector';
import { createTransferFixture, spawnTs, waitUntil, type TestCustomer, type TransferFixture } from '@bank/testkit';
import { requestTransfer, startTransferProcess, type TransferAnswer, type TransferProcessHandle } from '@bank/transfers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDirectoryTransport } from '../directoryTransport';
import { writeReturnsFile } from '../odfi/returnsFile';
import { achFileSettingsOf, type AchCycleDeps } from './achCycleDeps';
import { buildAchFile, sha256Hex, type BuiltAchFile } from './buildAchFile';
import { importIncomingFile, importReturnsFile } from './importAchFiles';
import { settleAchFiles } from './settleAchFiles';
import { transmitAchFiles } from './transmitAchFiles';

/**
 * The ACH file cycle against the real PostgreSQL event store, with the transfer process queueing external transfers:
 * a file built exactly once by two builders at once and after a builder died past its record; its transmission to
 * the outbox; returns before and after settlement (applied once, a malformed file refused whole); settlement at the
 * COB of the effective date; incoming credits and the returns the bank owes for unknown and closed accounts. The
 * ledger (every event's posting, as the projector and the replays compute it) is checked at each step.
 */
const PIN = '123456';
const BUSINESS_DATE = '2026-11-25';
let fx: TransferFixture;
let transfers: TransferProcessHandle;
let outboxDir: string;

function cycleOn(commands = fx.commands): AchCycleDeps {
  return { commands, pool: fx.pool, settings: achFileSettingsOf('102000021'), businessDate: async () => BUSINESS_DATE, now: () => new Date('2026-11-25T17:05:00.000Z') };
}

/** The whole log, once every event this process appended is visible to readers (other suites' transactions may hold it back). */
async function allEvents(): Promise<RecordedEvent[]> {
  const last = fx.lastPosition();
  let events: RecordedEvent[] = [];
  await waitUntil(
    async () => {
      events = [];
      for (let batch = await fx.store.readAll({ limit: 1000 }); batch.length > 0; batch = await fx.store.readAll({ after: batch.at(-1)!.position, limit: 1000 })) events.push(...batch);
      const seen = events.at(-1)?.position;
      return last === undefined || (seen !== undefined && comparePositions(seen, last) >= 0);
    },
    { what: 'the log visible up to the last append' },
  );
  return events;
}

/** The ledger's balances from every posting of the log (cents). */
async function ledger(): Promise<{ achOutbound: bigint; cashAtFed: bigint; balanced: boolean }> {
  const totals = emptyLedgerTotals();
  for (const recorded of await allEvents()) {
    const entry = journalEntryOf(parseEvent(recorded.type, recorded.data), { streamId: recorded.streamId, recordedAt: recorded.created.toISOString() });
    if (entry) addEntryToTotals(totals, entry);
  }
  const trial = trialBalanceOf(totals);
  const balanceOf = (key: string): bigint => trial.rows.find((row) => row.key === key)?.balanceCents ?? 0n;
  return { achOutbound: balanceOf('ach-outbound'), cashAtFed: balanceOf('cash-at-fed'), balanced: trial.balanced };
}

function pay(payer: TestCustomer, amount: number, accountNumber: string, accountType: 'savings' | 'checking' = 'checking', to = 'Recipient'): Promise<TransferAnswer> {
  return requestTransfer(
    { commands: fx.commands, pool: fx.pool, signals: fx.signals, pinKeys: fx.pinKeys, creditWaitMs: 0, businessDate: async () => BUSINESS_DATE },
    {
      userId: payer.userId,
      input: transferInput.parse({ from: 'savings', amount, accountNumber, accountType, bankName: 'Other Bank', routingNumber: '021000021', to, paymentPin: PIN }),
      idempotencyKey: randomUUID(),
    },
  );
}

async function queued(transferIds: readonly string[]): Promise<void> {
  await waitUntil(
    async () => {
      const events = await fx.store.readStream(streams.achFiles());
      return transferIds.every((id) => events.some((event) => event.type === 'AchEntryQueued' && event.data.transferId === id));
    },
    { what: 'the entries queued' },
  );
}

beforeAll(async () => {
  fx = await createTransferFixture('ach_cycle');
  await migrateReadModels(fx.pool);
  transfers = startTransferProcess({ store: fx.store, commands: fx.commands, pool: fx.pool, signals: fx.signals, checkpointEveryMs: 20 });
  await transfers.ready;
  outboxDir = mkdtempSync(path.join(tmpdir(), 'ach-cycle-'));
});

afterAll(async () => {
  await transfers?.stop();
  await fx?.close();
  if (outboxDir) rmSync(outboxDir, { recursive: true, force: true });
});

// The builder process's start and fault are waited for up to 60 s: the timeout leaves room for the rest of a test.
describe('the ACH file cycle', { timeout: 180_000 }, () => {
  let payer: TestCustomer;
  let file: BuiltAchFile;
  const answers: TransferAnswer[] = [];

  it('builds one file of the waiting transfers, even with two builders at once (two processes, two command handlers)', async () => {
    payer = await fx.openCustomer({ savingsCents: 1_000_00, pin: PIN });
    answers.push(await pay(payer, 123.45, '4000123456', 'checking', 'Grace Hopper'));
    answers.push(await pay(payer, 1, '998877665544332', 'savings', 'Alan Mathison Turing the Second'));
    answers.push(await pay(payer, 50, '7777000011', 'checking', 'Ada Lovelace'));
    await queued(answers.map((answer) => answer.transferId));
    expect(await ledger()).toMatchObject({ achOutbound: 174_45n, cashAtFed: 0n, balanced: true });

    const builders = [cycleOn(createCommandHandler({ store: fx.store })), cycleOn(createCommandHandler({ store: fx.store }))];
    const built = await Promise.all(builders.map((deps) => buildAchFile(deps)));
    const files = built.filter((one): one is BuiltAchFile => one !== undefined);
    expect(files).toHaveLength(1);
    file = files[0]!;
    expect(file.entries.map((entry) => entry.transferId).sort()).toEqual(answers.map((answer) => answer.transferId).sort());
    expect(file).toMatchObject({ effectiveDate: '2026-11-27', totalCreditCents: 174_45, totalDebitCents: 0, sha256: sha256Hex(file.text) });
    expect(file.entries.map((entry) => entry.traceNumber)).toEqual(['102000020000001', '102000020000002', '102000020000003']);
    expect(await buildAchFile(cycleOn())).toBeUndefined();
    const stored = (await fx.store.readStream(streams.achFiles())).filter((event) => event.type === 'AchFileBuilt');
    expect(stored).toHaveLength(1);
    expect(stored[0]?.data.text).toBe(file.text);
    for (const answer of answers) expect((await fx.transfer(answer.transferId)).phase).toBe('sent');
    if (process.env.ACH_NOTE) process.stdout.write(`\n--- outbound file ---\n${file.text}`);
  });

  it('a builder process killed with SIGKILL right after recording its file: the entries are in that file only, and the next process transmits it', async () => {
    const other = await fx.openCustomer({ savingsCents: 100_00, pin: PIN });
    const late = await pay(other, 10, '1212121212');
    await queued([late.transferId]);
    const builder = spawnTs('services/ach/test/buildFileScript.ts', { DATABASE_URL: fx.db.url, ACH_FAULT: 'file-recorded' });
    await builder.waitFor('FAULT file-recorded', { timeoutMs: 60_000 });
    expect(await builder.exited).toBeNull(); // killed by SIGKILL, no exit code
    expect((await fx.transfer(late.transferId)).phase).toBe('debited');
    // A fresh process: nothing waits any more; the transmission marks the transfer sent and uploads both files.
    const fresh = cycleOn(createCommandHandler({ store: fx.store }));
    expect(await buildAchFile(fresh)).toBeUndefined();
    const transport = createDirectoryTransport(outboxDir);
    const sent = await transmitAchFiles({ ...fresh, transport });
    expect(sent).toHaveLength(2);
    expect((await fx.transfer(late.transferId)).phase).toBe('sent');
    const first = sent.find((one) => one.fileId === file.fileId)!;
    expect(readFileSync(path.join(outboxDir, 'outbox', first.name), 'utf8')).toBe(file.text);
    expect(first.receipt.sha256).toBe(file.sha256);
    expect(await transmitAchFiles({ ...fresh, transport })).toEqual([]);
    const traces = (await fx.store.readStream(streams.achFiles())).filter((event) => event.type === 'AchFileBuilt').flatMap((event) => (event.data.entries as { traceNumber: string }[]).map((entry) => entry.traceNumber));
    expect(new Set(traces).size).toBe(traces.length);
  });

  it('a returns file: refused whole when malformed; applied once by original trace number, before settlement from ach-outbound', async () => {
    const returns = writeReturnsFile({ outbound: file.text, accountNumbers: ['4000123456'], reasonCode: 'R01', createdAt: '2026-11-26T09:00:00.000Z' });
    expect(returns.returned).toMatchObject([{ accountNumber: '4000123456', amountCents: 123_45 }]);
    const before = await ledger();
    const lines = returns.text.split('\n');
    lines[2] = lines[2]!.replace('0000012345', '0000012346');
    await expect(importReturnsFile(cycleOn(), lines.join('\n'))).rejects.toThrow(/^Line \d+: /);
    expect(await ledger()).toEqual(before);

    expect(await importReturnsFile(cycleOn(), returns.text)).toEqual({ applied: 1, alreadyApplied: 0, unmatched: [] });
    expect(await importReturnsFile(cycleOn(), returns.text)).toEqual({ applied: 0, alreadyApplied: 1, unmatched: [] });
    const history = await fx.history(payer.userId);
    expect(history.transactions.get(answers[0]!.debitTransactionId)?.status).toBe('failed');
    const refund = (await fx.store.readStream(streams.account(payer.userId))).find((event) => event.type === 'AccountCredited' && event.data.transferId === answers[0]!.transferId);
    expect(refund?.data).toMatchObject({ description: 'Returned: R01 Insufficient funds', clearing: 'ach-outbound', amountCents: 123_45 });
    const after = await ledger();
    expect(after).toEqual({ achOutbound: before.achOutbound - 123_45n, cashAtFed: 0n, balanced: true });
    if (process.env.ACH_NOTE) process.stdout.write(`\n--- returns file ---\n${returns.text}\n--- ledger before: ${JSON.stringify(before, (_k, v) => (typeof v === 'bigint' ? String(v) : v))}, after: ${JSON.stringify(after, (_k, v) => (typeof v === 'bigint' ? String(v) : v))}\n`);
  });

  it('settles at the COB of the effective date (not before); a return after settlement comes back from cash-at-fed', async () => {
    expect(await settleAchFiles(cycleOn(), '2026-11-26')).toEqual({ files: 0, entries: 0, skipped: 0 });
    const summary = await settleAchFiles(cycleOn(), '2026-11-27');
    expect(summary).toEqual({ files: 2, entries: 3, skipped: 1 });
    expect(await settleAchFiles(cycleOn(), '2026-11-27')).toEqual({ files: 0, entries: 0, skipped: 0 });
    const history = await fx.history(payer.userId);
    expect(history.transactions.get(answers[1]!.debitTransactionId)?.status).toBe('completed');
    expect((await fx.transfer(answers[1]!.transferId)).phase).toBe('settled');
    expect(await ledger()).toEqual({ achOutbound: 0n, cashAtFed: -(1_00n + 50_00n + 10_00n), balanced: true });

    const late = writeReturnsFile({ outbound: file.text, accountNumbers: ['7777000011'], reasonCode: 'R03', createdAt: '2026-11-30T09:00:00.000Z' });
    expect(await importReturnsFile(cycleOn(), late.text)).toEqual({ applied: 1, alreadyApplied: 0, unmatched: [] });
    expect((await fx.history(payer.userId)).transactions.get(answers[2]!.debitTransactionId)?.status).toBe('failed');
    expect(await ledger()).toEqual({ achOutbound: 0n, cashAtFed: -(1_00n + 10_00n), balanced: true });
    expect(await fx.balances(payer.userId)).toEqual({ savings: 1_000_00 - 1_00, checking: 0 });
  });

  it('incoming credits: to the customer by account number; unknown and closed accounts owed back and returned in the next file; each entry once', async () => {
    const known = await fx.openCustomer();
    const closed = await fx.openCustomer();
    await fx.commands.execute({
      decider: accountDecider,
      streamId: streams.account(closed.userId),
      decide: (state) => accountDecider.decide({ type: 'CloseAccount', adminId: fx.adminId, now: new Date().toISOString() }, state),
      context: { metadata: { actorRole: 'admin' } },
      commandType: 'CloseAccount',
    });
    const entry = (n: number, code: 22 | 32, accountNumber: string, amountCents: number): EntryDetail => ({
      transactionCode: code,
      rdfiRoutingNumber: '102000021',
      accountNumber,
      amountCents,
      individualIdentification: `PAY${n}`,
      individualName: `Receiver ${n}`,
      discretionaryData: '',
      traceNumber: `0110000100000${String(70 + n).padStart(2, '0')}`,
    });
    const incoming = (entries: EntryDetail[]) =>
      writeNachaFile({
        header: { immediateDestination: '102000021', immediateOrigin: '011000015', creationDate: '2026-11-26', creationTime: '0800', fileIdModifier: 'A', immediateDestinationName: 'Summit Bank', immediateOriginName: 'Federal Reserve Bank', referenceCode: '' },
        batches: [{ header: { companyName: 'Payroll Inc', companyDiscretionaryData: '', companyIdentification: '1234567890', secCode: 'PPD', companyEntryDescription: 'PAYROLL', companyDescriptiveDate: '', effectiveEntryDate: '2026-11-26', settlementDate: '', originatorStatusCode: '1', odfiIdentification: '01100001' }, entries }],
      });
    const before = await ledger();
    const first = incoming([entry(1, 22, known.accountNumber, 2_500_00), entry(2, 32, '5512340000', 100_00), entry(3, 22, closed.accountNumber, 75_00)]);
    expect(await importIncomingFile(cycleOn(), first)).toEqual({
      credited: 1,
      returned: [
        { traceNumber: '011000010000072', reason: 'R03' },
        { traceNumber: '011000010000073', reason: 'R02' },
      ],
      alreadyApplied: 0,
    });
    expect(await importIncomingFile(cycleOn(), first)).toMatchObject({ credited: 0, returned: [], alreadyApplied: 3 });
    // One entry again in another file: recognised by its trace number.
    expect(await importIncomingFile(cycleOn(), incoming([entry(1, 22, known.accountNumber, 2_500_00)]))).toMatchObject({ credited: 0, alreadyApplied: 1 });
    expect(await fx.balances(known.userId)).toEqual({ savings: 0, checking: 2_500_00 });
    expect(await ledger()).toEqual({ achOutbound: before.achOutbound + 175_00n, cashAtFed: before.cashAtFed + 2_675_00n, balanced: true });

    const next = await buildAchFile(cycleOn());
    expect(next?.entries.map((e) => [e.transactionCode, e.returnOf?.reasonCode, e.amountCents])).toEqual([
      [31, 'R03', 100_00],
      [21, 'R02', 75_00],
    ]);
    expect(next?.entries[0]?.routingNumber).toBe('011000015');
    expect(next && (await settleAchFiles(cycleOn(), next.effectiveDate))).toMatchObject({ files: 1 });
    expect(await ledger()).toEqual({ achOutbound: before.achOutbound, cashAtFed: before.cashAtFed + 2_500_00n, balanced: true });
  });
});
