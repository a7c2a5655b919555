import { accountDecider, type AccountState } from '@bank/domain';
import { describe, expect, it } from 'vitest';
import { ownActivity, planTransferAmounts } from './seedActivity';
import { planBudget, planTransactionCounts, plannedCustomer } from './seedPlan';
import { seedTransferRequest } from './seedTransferRequest';
import { planTransfers, transfersOf } from './seedTransfers';
import { plannedVerification } from './seedVerifications';

const options = { customers: 300, transactions: 6_000, seed: 42 };

function planned(seed = options.seed) {
  const opts = { ...options, seed };
  const counts = planTransactionCounts(opts);
  const plan = planTransfers(opts, counts);
  const customerOf = (index: number) => plannedCustomer(opts, counts, index);
  planTransferAmounts(seed, plan, customerOf);
  return { counts, plan, customerOf };
}

describe('the transfers of a generated bank', () => {
  it('spend the budget exactly: postings, two rows per internal transfer, one per external', () => {
    const budget = planBudget(options);
    expect(budget.postings + 2 * budget.internalTransfers + budget.externalTransfers).toBe(6_000);
    expect(budget.internalTransfers).toBeGreaterThan(0);
    expect(budget.externalTransfers).toBeGreaterThan(0);
    const { counts, plan } = planned();
    expect(counts.reduce((sum, n) => sum + n, 0)).toBe(budget.postings);
    expect(plan.count).toBe(budget.internalTransfers + budget.externalTransfers);
    expect(plan.payee.filter((payee) => payee < 0).length).toBe(budget.externalTransfers);
    expect(planBudget({ customers: 1, transactions: 100 })).toEqual({ postings: 100, internalTransfers: 0, externalTransfers: 0 });
  });

  it('are the same for the same seed, and different for another', () => {
    const a = planned();
    const b = planned();
    expect(b.plan.amountCents).toEqual(a.plan.amountCents);
    expect(b.plan.payee).toEqual(a.plan.payee);
    expect(seedTransferRequest(42, b.plan, 5, b.customerOf)).toEqual(seedTransferRequest(42, a.plan, 5, a.customerOf));
    expect(planned(7).plan.payer).not.toEqual(a.plan.payer);
  });

  it('never pays oneself, and every amount is at least the transfer minimum', () => {
    const { plan } = planned();
    for (let t = 0; t < plan.count; t += 1) {
      expect(plan.payee[t]).not.toBe(plan.payer[t]);
      expect(plan.amountCents[t]).toBeGreaterThanOrEqual(100);
    }
  });

  it("never overdraws: each account's own steps, decided by the account decider, are all accepted", () => {
    const { plan, customerOf } = planned();
    for (let c = 0; c < options.customers; c += 1) {
      const customer = customerOf(c);
      let state: AccountState = accountDecider.initialState;
      const now = '2025-06-01T00:00:00.000Z';
      for (const step of ownActivity(42, customer, plan)) {
        const command =
          step.kind === 'open'
            ? ({ type: 'OpenAccount', userId: `00000000-0000-4000-8000-${String(c).padStart(12, '0')}`, accountNumber: customer.accountNumber, now } as const)
            : step.kind === 'posting'
              ? ({ type: 'PostStaffTransaction', transactionId: `10000000-0000-4000-8000-${String(step.n).padStart(12, '0')}`, adminId: '20000000-0000-4000-8000-000000000000', account: step.account, direction: step.direction, amountCents: step.amountCents, date: now, description: 'x', now } as const)
              : ({ type: 'DebitForTransfer', transactionId: `30000000-0000-4000-8000-${String(step.transfer).padStart(12, '0')}`, transferId: `40000000-0000-4000-8000-${String(step.transfer).padStart(12, '0')}`, account: 'checking', amountCents: step.amountCents, description: 'x', now } as const);
        for (const event of accountDecider.decide(command, state)) state = accountDecider.evolve(state, event);
      }
      expect(transfersOf(plan.outgoing, c).length).toBe(plan.payer.filter((payer) => payer === c).length);
    }
  });

  it('lists each customer’s transfers in time order', () => {
    const { plan } = planned();
    for (let c = 0; c < options.customers; c += 1) {
      for (const list of [transfersOf(plan.outgoing, c), transfersOf(plan.incoming, c)]) {
        for (let i = 1; i < list.length; i += 1) expect(plan.atMs[list[i]!]!).toBeGreaterThanOrEqual(plan.atMs[list[i - 1]!]!);
      }
    }
  });

  it('has about a fifth of the customers submit a verification, most of them decided', () => {
    const planned = Array.from({ length: 2_000 }, (_, i) => plannedVerification(42, i, Date.UTC(2025, 0, 1)));
    const submitted = planned.filter((v) => v !== undefined);
    expect(submitted.length).toBeGreaterThan(300);
    expect(submitted.length).toBeLessThan(500);
    expect(submitted.filter((v) => v.decision?.status === 'verified').length).toBeGreaterThan(submitted.length / 2);
    expect(submitted.some((v) => v.decision?.status === 'failed')).toBe(true);
    expect(submitted.some((v) => v.decision === undefined)).toBe(true);
  });
});
