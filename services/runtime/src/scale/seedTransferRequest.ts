/**
 * Transfer `t` of a generated bank as the bank records it: its request (the TransferRequested data, every id fixed
 * up front and derived from the seed) and the intent the payer's debit carries, filled as decideTransferRequest
 * fills them. Pure: the payer's and the payee's side each build it and get the same one.
 */
import { deterministicId } from '@bank/commands';
import { bankIdentity, type TransferIntent, type TransferRequest } from '@bank/domain';
import { seededRandom, type PlannedCustomer } from './seedPlan';
import type { TransferPlan } from './seedTransfers';

const OTHER_BANKS = [
  { name: 'Harbor Credit Union', routing: '211070175' },
  { name: 'First Prairie Bank', routing: '071000013' },
  { name: 'Pacific Trust', routing: '121000358' },
];
const RECIPIENTS = ['Jordan Reyes', 'Priya Natarajan', 'Sam Okafor', 'Mei Chen', 'Lucas Moreau', 'Ana Silva', 'Omar Haddad'];
const NOTES = ['', '', 'Rent', 'Dinner', 'Thanks!', 'Invoice', 'Gift'];

export function seedUserId(seed: number, index: number): string {
  return deterministicId(`seed:${seed}:customer:${index}`);
}

/** The request of transfer `t` (its amount from the plan: planTransferAmounts must have run). */
export function seedTransferRequest(seed: number, plan: TransferPlan, t: number, customerOf: (index: number) => PlannedCustomer): TransferRequest {
  const random = seededRandom((seed * 15_485_863 + t) ^ 0x2545f491);
  const id = (what: string) => deterministicId(`seed:${seed}:transfer:${t}:${what}`);
  const payeeIndex = plan.payee[t]!;
  const payee = payeeIndex >= 0 ? customerOf(payeeIndex) : undefined;
  const other = OTHER_BANKS[Math.floor(random() * OTHER_BANKS.length)]!;
  const description = NOTES[Math.floor(random() * NOTES.length)]!;
  const common = {
    transferId: id('transfer'),
    payerId: seedUserId(seed, plan.payer[t]!),
    from: 'checking' as const,
    amountCents: plan.amountCents[t]!,
    accountType: plan.toSavings[t] ? ('savings' as const) : ('checking' as const),
    description,
    requestedAt: new Date(plan.atMs[t]!).toISOString(),
    debitTransactionId: id('debit'),
    refundTransactionId: id('refund'),
  };
  if (payee) {
    return {
      ...common,
      accountNumber: payee.accountNumber,
      bankName: bankIdentity.name,
      routingNumber: bankIdentity.routingNumber,
      recipientName: `${payee.firstName} ${payee.lastName}`,
      internal: true,
      payeeId: seedUserId(seed, payeeIndex),
      creditTransactionId: id('credit'),
    };
  }
  return {
    ...common,
    // Ten digits outside the generated block (4,000,000,000 + …) and the admin's 3999999999.
    accountNumber: String(6_000_000_000 + Math.floor(random() * 1_000_000_000)),
    bankName: other.name,
    routingNumber: other.routing,
    recipientName: RECIPIENTS[Math.floor(random() * RECIPIENTS.length)]!,
    internal: false,
  };
}

/** The intent the payer's debit carries for `request` (what transferRequestOf reads back). */
export function intentOf(request: TransferRequest): TransferIntent {
  return {
    internal: request.internal,
    ...(request.internal ? { payeeId: request.payeeId, creditTransactionId: request.creditTransactionId } : {}),
    refundTransactionId: request.refundTransactionId,
    accountNumber: request.accountNumber,
    bankName: request.bankName,
    routingNumber: request.routingNumber,
    accountType: request.accountType,
    recipientName: request.recipientName,
    description: request.description,
    requestedAt: request.requestedAt,
  };
}

/** The debit's description, as decideTransferRequest words it. */
export function debitDescription(request: TransferRequest): string {
  return request.description || (request.recipientName ? `Transfer to ${request.recipientName}` : 'Transfer');
}
