import { defaultTransferSettings, noFaults } from '@bank/transfers';
import { describe, expect, it } from 'vitest';
import { apiTransferSettings } from './apiTransferSettings';

describe('the API transfer settings (built once by the composition root)', () => {
  it('carries the credit wait and the standing orders’ catch-up days', () => {
    const settings = apiTransferSettings(defaultTransferSettings({ TRANSFER_CREDIT_WAIT_MS: 1234, STANDING_ORDER_CATCH_UP_DAYS: 7 }), 'test');
    expect([settings.creditWaitMs, settings.standingOrderCatchUpDays]).toEqual([1234, 7]);
  });

  it('has no fault hook without an after-debit point, nor ever in production', () => {
    expect(apiTransferSettings(defaultTransferSettings(), 'test').afterDebitFault).toBe(noFaults);
    expect(apiTransferSettings(defaultTransferSettings({ TRANSFER_FAULT: 'before-credit:exit' }), 'test').afterDebitFault).toBe(noFaults);
    expect(apiTransferSettings(defaultTransferSettings({ TRANSFER_FAULT: 'after-debit:exit' }), 'production').afterDebitFault).toBe(noFaults);
    expect(apiTransferSettings(defaultTransferSettings({ TRANSFER_FAULT: 'before-credit:exit, after-debit:hang' }), 'test').afterDebitFault).not.toBe(noFaults);
  });
});
