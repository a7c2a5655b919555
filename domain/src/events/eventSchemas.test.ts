import { describe, expect, it } from 'vitest';
import { ADMIN_ID, NOW, pinSet, registered } from '../testing/fixtures';
import { bankEventTypes, eventSchemas, eventTypesOfStream, parseEvent, safeParseEvent } from './eventSchemas';
import { maskSecrets } from './maskSecrets';

describe('the event registry', () => {
  it('knows every event type of the catalogue, each with a schema version and a stream', () => {
    expect([...bankEventTypes].sort()).toEqual(
      [
        'CustomerRegistered', 'ProfileChanged', 'PasswordChanged', 'VerificationSubmitted', 'VerificationStatusSet', 'ProfilePictureSet', 'PaymentPinSet',
        'CustomerBlocked', 'CustomerUnblocked', 'CustomerDisabled', 'CustomerEnabled', 'AccountNumberChanged', 'CustomerClosed', 'CardRequested',
        'SecondFactorEnrolled', 'SecondFactorRemoved', 'SecondFactorReset', 'RecoveryCodeUsed',
        'EmailReserved', 'EmailReleased', 'AccountNumberReserved', 'AccountNumberReleased',
        'AccountOpened', 'AccountCredited', 'AccountDebited', 'BalanceAdjusted', 'StaffTransactionPosted', 'TransactionReversed', 'TransactionStatusChanged', 'AccountClosed',
        'TransferRequested', 'TransferDebited', 'TransferCredited', 'TransferSent', 'TransferSettled', 'TransferFailed', 'TransferRefunded',
        'BeneficiaryAdded', 'BeneficiaryRemoved', 'ContactMessageReceived', 'ContactMessageDeleted',
        'StandingOrderCreated', 'StandingOrderPaused', 'StandingOrderResumed', 'StandingOrderCancelled', 'OccurrencePaid', 'OccurrenceFailed',
        'OccurrenceMissed', 'StandingOrderSuspended',
        'BusinessCalendarStarted', 'CobStepCompleted', 'BusinessDayClosed',
        'InterestAccrued', 'InterestBooked', 'InterestMonthClosed',
        'InterestRateScheduled',
        'AchEntryQueued', 'AchFileBuilt', 'AchFileTransmitted', 'AchFileSettled', 'AchReturnApplied', 'AchIncomingCredited', 'AchIncomingReturned',
      ].sort(),
    );
    for (const type of bankEventTypes) expect(eventSchemas[type].schemaVersion).toBe(1);
    expect(eventTypesOfStream('email')).toEqual(['EmailReserved', 'EmailReleased']);
    expect(eventTypesOfStream('transfer')).toHaveLength(7);
    expect(eventTypesOfStream('standingOrder')).toHaveLength(8);
  });

  it('parses valid stored data', () => {
    expect(parseEvent('CustomerRegistered', JSON.parse(JSON.stringify(registered().data)))).toEqual(registered());
  });

  it('strips unknown keys', () => {
    expect(parseEvent('CustomerBlocked', { adminId: ADMIN_ID, occurredAt: NOW, extra: 1 })).toEqual({ type: 'CustomerBlocked', data: { adminId: ADMIN_ID, occurredAt: NOW } });
  });

  it('refuses invalid data, naming the field', () => {
    const result = safeParseEvent('AccountDebited', { transactionId: 'x' });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error.issues.map((issue) => issue.path)).toContain('transactionId');
    expect(() => parseEvent('CustomerRegistered', { ...registered().data, accountNumber: '12' })).toThrow(/accountNumber/);
  });

  it('refuses money that is not integer cents', () => {
    const data = { transactionId: ADMIN_ID, account: 'savings', amountCents: 10.5, direction: 'debit', description: '', status: 'pending', occurredAt: NOW, balanceAfterCents: 0 };
    expect(safeParseEvent('AccountDebited', data).ok).toBe(false);
    expect(safeParseEvent('AccountDebited', { ...data, amountCents: 10 }).ok).toBe(true);
    expect(safeParseEvent('AccountDebited', { ...data, amountCents: 10, balanceAfterCents: -1 }).ok).toBe(false);
  });

  it('refuses unknown types and versions newer than known', () => {
    expect(() => parseEvent('Nope', {})).toThrow('Unknown event type: Nope');
    expect(() => parseEvent('CustomerBlocked', { adminId: ADMIN_ID, occurredAt: NOW }, 2)).toThrow('Unsupported schema version 2 of CustomerBlocked');
  });

  it('masks secrets for auditors', () => {
    expect(maskSecrets(registered())).toMatchObject({ passwordHash: '***', email: 'ada@example.com' });
    expect(maskSecrets(pinSet())).toMatchObject({ pinHash: '***', adminId: ADMIN_ID });
  });
});
