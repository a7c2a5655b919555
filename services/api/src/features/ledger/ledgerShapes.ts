import { z } from 'zod';

const dollars = z.number().describe('dollars');

/** One ledger account of the chart with its totals (GET /audit/ledger/accounts, a trial balance's rows). */
export const ledgerAccountShape = z
  .object({
    key: z.string(),
    code: z.string(),
    name: z.string(),
    type: z.enum(['asset', 'liability', 'equity', 'income', 'expense']),
    debits: dollars,
    credits: dollars,
    balance: dollars,
  })
  .strict();

/** GET /audit/ledger/trial-balance. */
export const trialBalanceShape = z
  .object({ at: z.iso.datetime({ offset: true }), accounts: z.array(ledgerAccountShape), totalDebits: dollars, totalCredits: dollars, balanced: z.boolean() })
  .strict();

/** One posting of a ledger account (GET /audit/ledger/accounts/:key/entries). */
export const ledgerEntryShape = z
  .object({
    position: z.string(),
    eventId: z.string(),
    at: z.iso.datetime({ offset: true }),
    businessDate: z.iso.date(),
    side: z.enum(['debit', 'credit']),
    amount: dollars,
    customerId: z.string().optional(),
    account: z.enum(['savings', 'checking']).optional(),
    transferId: z.string().optional(),
    actorId: z.string().optional(),
    description: z.string(),
  })
  .strict();

/** GET /audit/ledger/reconciliation. */
export const reconciliationShape = z
  .object({
    ok: z.boolean(),
    controls: z.array(z.object({ key: z.string(), balance: dollars, subledgerTotal: dollars, difference: dollars }).strict()),
    clearing: z.array(
      z.object({ key: z.string(), balance: dollars, openItems: z.array(z.object({ transferId: z.string(), amount: dollars, since: z.string() }).strict()) }).strict(),
    ),
  })
  .strict();

/** A day close (GET /audit/ledger/days). */
export const ledgerDayShape = z
  .object({ businessDate: z.iso.date(), closedAt: z.string(), totalDebits: dollars, totalCredits: dollars, balanced: z.boolean(), journalHash: z.string() })
  .strict();
