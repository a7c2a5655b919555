/**
 * What one generated customer does with their own account, in time order (pure, deterministic for a seed): the
 * opening deposit, the staff postings, and the transfers they send. Money received from other customers is left
 * out on purpose: every balance rule here is checked without it, so it only ever adds to what the rules saw, and
 * each account's steps can be decided without knowing anyone else's.
 *
 * No overdraft, by construction: the checking account (which transfers are paid from) always keeps at least
 * MIN_TRANSFER_CENTS for each transfer still to send. The opening deposit covers that for all of them, staff debits
 * never dig into it, and each transfer leaves enough for the rest.
 */
import { MIN_TRANSFER_CENTS, type AccountKind, type Direction } from '@bank/domain';
import { seededRandom, type PlannedCustomer } from './seedPlan';
import { DAY_MS, transfersOf, type TransferPlan } from './seedTransfers';

export type OwnStep =
  | { readonly kind: 'open'; readonly at: number }
  | {
      readonly kind: 'posting';
      /** The posting's number on this account (0: the opening deposit). */
      readonly n: number;
      readonly at: number;
      readonly account: AccountKind;
      readonly direction: Direction;
      readonly amountCents: number;
    }
  | { readonly kind: 'transfer'; readonly transfer: number; readonly at: number; readonly amountCents: number };

/** The customer's own steps, in time order (see the module comment). */
export function* ownActivity(seed: number, customer: PlannedCustomer, plan: TransferPlan): Generator<OwnStep> {
  const random = seededRandom((seed * 7_919 + customer.index) | 0);
  const opened = plan.startMs + Math.floor(random() * 30) * DAY_MS;
  const amounts = seededRandom((seed * 104_729 + customer.index) ^ 0x3c6ef372);
  const outgoing = transfersOf(plan.outgoing, customer.index);
  let sent = 0;
  const balances = { checking: 0, savings: 0 };
  const reserve = () => (outgoing.length - sent) * MIN_TRANSFER_CENTS;
  yield { kind: 'open', at: opened };

  function* transfersUntil(at: number): Generator<OwnStep> {
    while (sent < outgoing.length && plan.atMs[outgoing[sent]!]! <= at) {
      const t = outgoing[sent]!;
      const wanted = MIN_TRANSFER_CENTS + Math.floor(amounts() * (customer.merchant ? 50_000 : 20_000));
      sent += 1;
      // What checking can give while keeping MIN_TRANSFER_CENTS for each transfer still to send (at least that much).
      const amountCents = Math.min(wanted, balances.checking - reserve());
      balances.checking -= amountCents;
      yield { kind: 'transfer', transfer: t, at: plan.atMs[t]!, amountCents };
    }
  }

  const total = customer.transactions;
  for (let n = 0; n < total; n += 1) {
    const opening = n === 0;
    const at = opening ? opened : opened + Math.floor(((n + random()) / total) * 335 * DAY_MS);
    yield* transfersUntil(at);
    const account: AccountKind = opening || random() < 0.7 ? 'checking' : 'savings';
    const amountCents = opening
      ? 50_000 + Math.floor(random() * 500_000) + reserve()
      : 100 + Math.floor(random() * (customer.merchant ? 20_000 : 15_000));
    const spendable = balances[account] - (account === 'checking' ? reserve() : 0);
    const direction: Direction = opening || amountCents > spendable || random() < 0.45 ? 'credit' : 'debit';
    balances[account] += direction === 'credit' ? amountCents : -amountCents;
    yield { kind: 'posting', n, at, account, direction, amountCents };
  }
  yield* transfersUntil(Number.POSITIVE_INFINITY);
}

/** Fills `plan.amountCents` from every payer's own activity (the payee's side of a transfer needs its amount). */
export function planTransferAmounts(seed: number, plan: TransferPlan, customerOf: (index: number) => PlannedCustomer): void {
  const customers = plan.outgoing.offsets.length - 1;
  for (let c = 0; c < customers; c += 1) {
    if (plan.outgoing.offsets[c + 1] === plan.outgoing.offsets[c]) continue;
    for (const step of ownActivity(seed, customerOf(c), plan)) {
      if (step.kind === 'transfer') plan.amountCents[step.transfer] = step.amountCents;
    }
  }
}
