import type { TransferRequest } from '@bank/domain';

/** The outcome of handing an external transfer to the (simulated) settlement network. */
export type SettlementOutcome = { readonly ok: true } | { readonly ok: false; readonly reason: string };

/**
 * The other banks. The outcome must be deterministic for a transfer: a settlement job that crashed half-way is run
 * again and must reach the same outcome.
 */
export interface SettlementNetwork {
  settle(request: TransferRequest): Promise<SettlementOutcome>;
}

export const SETTLEMENT_REJECTED_REASON = 'The recipient bank rejected the transfer';

/**
 * The simulated network: every external transfer settles, except one to an account number in `rejectAccounts`
 * (SETTLEMENT_REJECT_ACCOUNTS, default 0000000000), which the recipient bank rejects.
 */
export function createSimulatedSettlement(rejectAccounts: readonly string[]): SettlementNetwork {
  const rejected = new Set(rejectAccounts.map((n) => n.trim()));
  return {
    async settle(request) {
      return rejected.has(request.accountNumber.trim()) ? { ok: false, reason: SETTLEMENT_REJECTED_REASON } : { ok: true };
    },
  };
}
