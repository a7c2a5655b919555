import { emptyAccountHistory, evolveAccountHistory, isAccountEvent, parseEvent, transactionViews, type AccountHistory, type BankEvent } from '@bank/domain';
import { comparePositions, formatPosition, type EventStore, type Position } from '@bank/eventstore';
import type pg from 'pg';
import { DEFAULT_PROJECTOR_NAME, positionOrUndefined } from '../checkpoint/checkpointStore';
import { READ_MODEL_SCHEMA } from '../schema/readModelSchema';
import { readModelTables } from '../schema/readModelTables';
import { compareJournalPage, compareLedgerState, readLedgerSnapshot, type JournalSums } from './ledgerComparison';
import { compareInterest, InterestReplay, interestReplayTypes, readInterestSnapshot } from './interestComparison';
import { LedgerReplay, ledgerReplayTypes } from './ledgerReplay';
import { AchReplay, compareAch, readAchSnapshot } from './achComparison';

export interface VerifyMismatch {
  /** The customer concerned ('' for a mismatch of the books that concerns none: an account total, an extra line). */
  readonly userId: string;
  /** The stream of the event concerned (`journal`, `ledger` for the books' own rows). */
  readonly stream: string;
  /**
   * `savings`, `checking`, `account`, or `transactions[<id>]` / `transactions[<id>].<field>`; for the books:
   * `journal[<position>#<line no> <account key>]` (a line missing or extra) / `….<field>` (a line changed),
   * `ledger[<key>].debitsCents|creditsCents`, `clearing[<key> <transfer id>]`, `ledgerDays[<date>]`, `businessDate.<field>`;
   * interest: `interest.<account>.monthUnits|carryUnits|bookedCents|paidCents|balanceCents`, `interestDays[<date>].<field>`;
   * ACH (stream `achFiles`): `achFiles[<id>]` / `….<field>`, `achEntries[<trace number>]` / `….<field>`.
   */
  readonly field: string;
  readonly expected: unknown;
  readonly actual: unknown;
}

export interface VerifyResult {
  readonly ok: boolean;
  /** Accounts compared. */
  readonly checked: number;
  /** Journal lines of the read model compared with the replay's. */
  readonly journalLines: number;
  readonly mismatches: VerifyMismatch[];
  /** The read models' checkpoint the comparison was made at (formatted), null when nothing is applied. */
  readonly position: string | null;
  /** Events of the log replayed (up to that checkpoint). */
  readonly events: number;
}

export interface VerifyOptions {
  readonly pool: pg.Pool;
  readonly store: EventStore;
  readonly name?: string;
  readonly schema?: string;
  readonly batchSize?: number;
  /** Stop listing after this many mismatches (ok stays false). Default 1000. */
  readonly maxMismatches?: number;
}

interface AccountRow {
  user_id: string;
  savings_cents: string;
  checking_cents: string;
}

interface TransactionRow {
  id: string;
  user_id: string;
  account: string;
  direction: string;
  amount_cents: string;
  status: string;
  balance_after_cents: string;
  transfer_id: string | null;
}

/**
 * Replays every account stream with the domain's evolve and compares balances and transaction lists with the read
 * models, and replays the books through the domain's posting rule (journalEntryOf) and compares them with the
 * journal, the totals per account, the open clearing items and the day closes, and replays every account's interest
 * with the domain's pure book (createInterestBook) and compares it with rm.interest_accrued (the accounts as of the latest accrual) and rm.interest_days —
 * as of the read models' own checkpoint (the small tables read in one REPEATABLE READ snapshot, so the live
 * projector may keep writing meanwhile; the journal page by page beside the log's pages, up to that checkpoint: its
 * lines there never change).
 */
export async function verifyReadModels(options: VerifyOptions): Promise<VerifyResult> {
  const tables = readModelTables(options.schema ?? READ_MODEL_SCHEMA);
  const name = options.name ?? DEFAULT_PROJECTOR_NAME;
  const maxMismatches = options.maxMismatches ?? 1000;
  const client = await options.pool.connect();
  try {
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    const checkpoint = await client.query<{ position: string | null }>(`SELECT position FROM ${tables.checkpoint} WHERE name = $1`, [name]);
    const position = checkpoint.rows[0]?.position ?? null;
    const accountRows = await client.query<AccountRow>(`SELECT user_id, savings_cents, checking_cents FROM ${tables.accounts}`);
    const transactionRows = await client.query<TransactionRow>(
      `SELECT id, user_id, account, direction, amount_cents, status, balance_after_cents, transfer_id FROM ${tables.transactions}`,
    );
    const ledgerSnapshot = await readLedgerSnapshot(client, tables);
    const interestSnapshot = await readInterestSnapshot(client, tables);
    const achSnapshot = await readAchSnapshot(client, tables);
    await client.query('COMMIT');

    const mismatches: VerifyMismatch[] = [];
    const report = (mismatch: VerifyMismatch) => {
      if (mismatches.length < maxMismatches) mismatches.push(mismatch);
    };
    let failed = false;
    const note = (mismatch: VerifyMismatch) => {
      failed = true;
      report(mismatch);
    };

    const ledger = new LedgerReplay();
    const interest = new InterestReplay();
    const ach = new AchReplay();
    const sums: JournalSums = new Map();
    let journalLines = 0;
    let compared = '';
    const comparePage = async (through: string) => {
      journalLines += await compareJournalPage(client, tables, ledger.takePage(), { after: compared, through }, sums, note);
      compared = through;
    };
    const { accounts, events } = await replayLog(options.store, positionOrUndefined(position), options.batchSize ?? 2000, ledger, interest, ach, comparePage);
    // Lines after the last event replayed and up to the checkpoint (none but a forged one).
    if (position !== null) await comparePage(position);
    compareLedgerState(ledger, ledgerSnapshot, sums, note);
    compareInterest(interest, interestSnapshot, note);
    compareAch(ach, achSnapshot, note);

    const rowsByUser = new Map(accountRows.rows.map((row) => [row.user_id, row]));
    const transactionsByUser = new Map<string, Map<string, TransactionRow>>();
    for (const row of transactionRows.rows) {
      const list = transactionsByUser.get(row.user_id) ?? new Map<string, TransactionRow>();
      list.set(row.id, row);
      transactionsByUser.set(row.user_id, list);
    }

    for (const [userId, state] of accounts) {
      const stream = `account-${userId}`;
      if (state.status === 'unopened') continue;
      const row = rowsByUser.get(userId);
      rowsByUser.delete(userId);
      if (!row) {
        note({ userId, stream, field: 'account', expected: 'present', actual: null });
        continue;
      }
      if (Number(row.savings_cents) !== state.balances.savings) note({ userId, stream, field: 'savings', expected: state.balances.savings, actual: Number(row.savings_cents) });
      if (Number(row.checking_cents) !== state.balances.checking) note({ userId, stream, field: 'checking', expected: state.balances.checking, actual: Number(row.checking_cents) });

      const stored = transactionsByUser.get(userId) ?? new Map<string, TransactionRow>();
      transactionsByUser.delete(userId);
      for (const view of transactionViews(state)) {
        const field = `transactions[${view.transactionId}]`;
        const actual = stored.get(view.transactionId);
        stored.delete(view.transactionId);
        if (!actual) {
          note({ userId, stream, field, expected: 'present', actual: null });
          continue;
        }
        const expected: Record<string, unknown> = {
          account: view.account,
          direction: view.direction,
          amountCents: view.amountCents,
          status: view.status,
          balanceAfterCents: view.balanceAfterCents,
          transferId: view.transferId,
        };
        const got: Record<string, unknown> = {
          account: actual.account,
          direction: actual.direction,
          amountCents: Number(actual.amount_cents),
          status: actual.status,
          balanceAfterCents: Number(actual.balance_after_cents),
          transferId: actual.transfer_id,
        };
        for (const key of Object.keys(expected)) {
          if (expected[key] !== got[key]) note({ userId, stream, field: `${field}.${key}`, expected: expected[key], actual: got[key] });
        }
      }
      for (const extra of stored.keys()) note({ userId, stream, field: `transactions[${extra}]`, expected: null, actual: 'present' });
    }
    for (const userId of rowsByUser.keys()) note({ userId, stream: `account-${userId}`, field: 'account', expected: null, actual: 'present' });
    for (const [userId, extra] of transactionsByUser) {
      for (const id of extra.keys()) note({ userId, stream: `account-${userId}`, field: `transactions[${id}]`, expected: null, actual: 'present' });
    }

    return { ok: !failed, checked: [...accounts.values()].filter((state) => state.status !== 'unopened').length, journalLines, mismatches, position, events };
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}

/**
 * Folds every account stream of the log up to `until` (inclusive) with the auditors' fold (accountHistory), and
 * replays the books into `ledger`; after each page of the log, `onPage` gets the position of its last event
 * replayed (the ledger's lines of the page are then to be compared).
 */
async function replayLog(
  store: EventStore,
  until: Position | undefined,
  batchSize: number,
  ledger: LedgerReplay,
  interest: InterestReplay,
  ach: AchReplay,
  onPage: (through: string) => Promise<void>,
): Promise<{ accounts: Map<string, AccountHistory>; events: number }> {
  const accounts = new Map<string, AccountHistory>();
  let events = 0;
  if (!until) return { accounts, events };
  let after: Position | undefined;
  for (;;) {
    const batch = await store.readAll({ after, limit: batchSize });
    if (batch.length === 0) break;
    let last: Position | undefined;
    let done = false;
    for (const recorded of batch) {
      if (comparePositions(recorded.position, until) > 0) {
        done = true;
        break;
      }
      events += 1;
      last = recorded.position;
      const forAccount = recorded.streamId.startsWith('account-');
      const forLedger = ledgerReplayTypes.has(recorded.type);
      const forInterest = interestReplayTypes.has(recorded.type);
      const forAch = AchReplay.concerns(recorded.streamId);
      if (!forAccount && !forLedger && !forInterest && !forAch) continue;
      const schemaVersion = typeof recorded.metadata.schemaVersion === 'number' ? recorded.metadata.schemaVersion : undefined;
      const event: BankEvent = parseEvent(recorded.type, recorded.data, schemaVersion);
      if (forLedger) ledger.add(recorded, formatPosition(recorded.position), event);
      if (forInterest) interest.add(recorded, event);
      if (forAch) ach.add(event);
      if (!forAccount || !isAccountEvent(event)) continue;
      const userId = recorded.streamId.slice('account-'.length);
      const history = accounts.get(userId) ?? emptyAccountHistory();
      accounts.set(userId, evolveAccountHistory(history, event));
    }
    if (last !== undefined) await onPage(formatPosition(last));
    if (done) break;
    after = batch.at(-1)!.position;
  }
  return { accounts, events };
}
