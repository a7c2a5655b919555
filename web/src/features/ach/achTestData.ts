import type { AchEntry, AchFileDetail, AchFileSummary } from './achTypes';

/** Sample answers of the ACH routes (API.md, "ACH") for the screens' tests. */

export const FILE_ID = 'f1000000-0000-4000-8000-000000000001';
export const SHA = 'ab12cd34ef56'.concat('0'.repeat(52));
export const TRANSFER = 'd0000000-0000-4000-8000-000000000001';
export const RETURN_ID = 'e0000000-0000-4000-8000-000000000009';

export function sampleFile(overrides: Partial<AchFileSummary> = {}): AchFileSummary {
  return {
    id: FILE_ID,
    createdAt: '2026-11-25T17:05:00.000Z',
    effectiveDate: '2026-11-27',
    entryCount: 2,
    totalDebit: 0,
    totalCredit: 1234.56,
    status: 'transmitted',
    sha256: SHA,
    ...overrides,
  };
}

export function sampleAchEntry(overrides: Partial<AchEntry> = {}): AchEntry {
  return {
    traceNumber: '102000020000041',
    transferId: TRANSFER,
    amount: 1234.5,
    routingNumber: '021000021',
    accountNumber: '4000123456',
    name: 'Grace Hopper',
    transactionCode: 22,
    ...overrides,
  };
}

export function sampleFileDetail(overrides: Partial<AchFileDetail> = {}): AchFileDetail {
  return {
    ...sampleFile(),
    entries: [
      sampleAchEntry(),
      sampleAchEntry({ traceNumber: '102000020000042', transferId: RETURN_ID, amount: 0.06, name: 'Payroll Inc', transactionCode: 21, accountNumber: '55-1234' }),
    ],
    ...overrides,
  };
}

/** A (shortened) NACHA text as an admin would paste it: sent as is, trailing spaces included. */
export const NACHA_TEXT = `101 102000021 0110000152611301200A094101Summit Bank            ODFI                           \n9000000000001000000000000000000000000000000000000000000                                       \n`;
