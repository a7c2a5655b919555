import type { BusinessDate, DayClose, LedgerAccountRow, LedgerEntry, Reconciliation, TrialBalance } from './ledgerTypes';

/** Sample answers of the ledger routes for the screens' tests. */

export const CUSTOMER = 'c0000000-0000-4000-8000-000000000001';

export function sampleAccounts(): LedgerAccountRow[] {
  return [
    { key: 'cash-at-fed', code: '1000', name: 'Cash at the Fed', type: 'asset', debits: 0, credits: 75.25, balance: -75.25 },
    { key: 'customer-savings', code: '2000', name: 'Customer savings', type: 'liability', debits: 300, credits: 5000, balance: 4700 },
    { key: 'customer-checking', code: '2010', name: 'Customer checking', type: 'liability', debits: 75.25, credits: 1500.1, balance: 1424.85 },
    { key: 'staff-adjustments', code: '3000', name: 'Staff adjustments', type: 'equity', debits: 6200.1, credits: 0, balance: -6200.1 },
  ];
}

export function sampleTrialBalance(overrides: Partial<TrialBalance> = {}): TrialBalance {
  return { at: '2025-03-05T10:00:00.000Z', accounts: sampleAccounts(), totalDebits: 6575.35, totalCredits: 6575.35, balanced: true, ...overrides };
}

export function sampleBusinessDate(overrides: Partial<BusinessDate> = {}): BusinessDate {
  return { businessDate: '2025-03-05', mode: 'calendar', lastClosedDate: '2025-03-04', ...overrides };
}

export function sampleEntry(overrides: Partial<LedgerEntry> = {}): LedgerEntry {
  return {
    position: '12',
    eventId: 'e0000000-0000-4000-8000-000000000001',
    at: '2025-03-05T10:00:00.000Z',
    businessDate: '2025-03-05',
    side: 'credit',
    amount: 5000,
    customerId: CUSTOMER,
    account: 'savings',
    actorId: 'a0000000-0000-4000-8000-000000000002',
    description: 'Balance adjustment: Opening deposit',
    ...overrides,
  };
}

export function sampleReconciliation(overrides: Partial<Reconciliation> = {}): Reconciliation {
  return {
    ok: true,
    controls: [
      { key: 'customer-savings', balance: 4700, subledgerTotal: 4700, difference: 0 },
      { key: 'customer-checking', balance: 1424.85, subledgerTotal: 1424.85, difference: 0 },
    ],
    clearing: [
      { key: 'transfers-in-transit', balance: 0, openItems: [] },
      { key: 'ach-outbound', balance: 75.25, openItems: [{ transferId: 't0000000-0000-4000-8000-000000000009', amount: 75.25, since: '2025-03-05T09:00:00.000Z' }] },
    ],
    ...overrides,
  };
}

export function sampleDay(overrides: Partial<DayClose> = {}): DayClose {
  return {
    businessDate: '2025-03-04',
    closedAt: '2025-03-05T00:00:05.000Z',
    totalDebits: 6575.35,
    totalCredits: 6575.35,
    balanced: true,
    journalHash: 'a3f1c2d4e5b6978812345678909abcdefabcdefabcdefabcdefabcdefabcdef0',
    ...overrides,
  };
}
