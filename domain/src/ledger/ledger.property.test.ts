import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { AccountKind } from '../primitives';
import { bankRecipe, simulateBank } from '../testing/randomBank';
import { controlAccountKeyOf } from './chartOfAccounts';
import { addEntryToTotals, emptyLedgerTotals, trialBalanceOf } from './ledgerTotals';
import { isBalancedEntry, journalEntryOf } from './postingRules';

/**
 * Over random histories of every money command the bank has (transfers internal and external through every step
 * of the process, failures and refunds, admins' edits, postings and deletions, closed accounts; ACH files built,
 * settled and returned before or after settlement, incoming credits applied or owed back):
 *   every event's entry balances; at every position the ledger balances; each control account equals the sum of
 *   its customers' balances; each clearing account equals the transfers waiting in it.
 */
describe('the books over random histories of the bank', () => {
  it('balance at every position, controls equal their subledgers and clearing accounts equal their open transfers', () => {
    fc.assert(
      fc.property(fc.array(bankRecipe, { minLength: 1, maxLength: 120 }), (recipes) => {
        const log = simulateBank(recipes);
        const totals = emptyLedgerTotals();
        const balances = new Map<string, number>();
        const waiting = new Map<string, { internal: boolean; amountCents: number }>();
        let entries = 0;
        for (const { event, streamId, recordedAt } of log) {
          const entry = journalEntryOf(event, { streamId, recordedAt });
          if (entry) {
            entries += 1;
            expect(isBalancedEntry(entry)).toBe(true);
            addEntryToTotals(totals, entry);
          }
          // What the other side of the books says, independently of the posting rules.
          if ('balanceAfterCents' in event.data) balances.set(`${streamId}:${event.data.account}`, event.data.balanceAfterCents);
          if (event.type === 'AccountDebited' && event.data.intent && event.data.transferId) {
            waiting.set(event.data.transferId, { internal: event.data.intent.internal, amountCents: event.data.amountCents });
          }
          if (event.type === 'AccountCredited' && event.data.transferId && (event.data.refundOf !== undefined || waiting.get(event.data.transferId)?.internal)) {
            waiting.delete(event.data.transferId);
          }
          if (event.type === 'TransferSettled') waiting.delete(event.data.transferId);
          // The ACH returns the bank owes (an incoming credit it could not apply) wait in ach-outbound until settled.
          if (event.type === 'AchIncomingReturned') waiting.set(event.data.transferId, { internal: false, amountCents: event.data.amountCents });
          if (event.type === 'AchFileSettled') for (const item of event.data.returns) waiting.delete(item.transferId);

          const trial = trialBalanceOf(totals);
          expect(trial.balanced).toBe(true);
          const balanceOf = (key: string): bigint => trial.rows.find((row) => row.key === key)?.balanceCents ?? 0n;
          for (const kind of ['savings', 'checking'] as AccountKind[]) {
            const subledger = [...balances].filter(([key]) => key.endsWith(`:${kind}`)).reduce((sum, [, cents]) => sum + BigInt(cents), 0n);
            expect(balanceOf(controlAccountKeyOf[kind])).toBe(subledger);
          }
          const open = (internal: boolean): bigint => [...waiting.values()].filter((item) => item.internal === internal).reduce((sum, item) => sum + BigInt(item.amountCents), 0n);
          expect(balanceOf('transfers-in-transit')).toBe(open(true));
          expect(balanceOf('ach-outbound')).toBe(open(false));
        }
        expect(entries).toBeGreaterThan(0);
      }),
      { numRuns: 150 },
    );
  });

  it('exercises every posting: transfers credited, settled and refunded, edits, postings and deletions', () => {
    const seen = new Set<string>();
    fc.assert(
      fc.property(fc.array(bankRecipe, { minLength: 60, maxLength: 120 }), (recipes) => {
        for (const { event } of simulateBank(recipes)) {
          if (event.type === 'AccountCredited') seen.add(event.data.refundOf ? `refund:${event.data.clearing}` : event.data.achTraceNumber ? 'ach-credit' : 'credit');
          else if (event.type === 'AchFileSettled' && event.data.returns.length > 0) seen.add('ach-return-settled');
          else seen.add(event.type);
        }
      }),
      { numRuns: 40 },
    );
    expect([...seen].sort()).toEqual(
      expect.arrayContaining(['AccountDebited', 'BalanceAdjusted', 'StaffTransactionPosted', 'TransactionReversed', 'TransferSettled', 'credit', 'refund:ach-outbound', 'refund:transfers-in-transit', 'refund:cash-at-fed', 'ach-credit', 'AchIncomingReturned', 'ach-return-settled']),
    );
  });
});
