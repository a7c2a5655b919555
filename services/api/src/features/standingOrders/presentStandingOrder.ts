import { centsToDollars, nextPaymentDate, type StandingOrder } from '@bank/domain';
import { debitTransactionIdOf } from '@bank/transfers';

/** A standing order as the API shows it (amounts in dollars like the rest of the API). */
export interface StandingOrderDto {
  readonly _id: string;
  readonly status: StandingOrder['status'];
  /** Why the order was suspended (three payments in a row failed), while it is. */
  readonly suspendedReason: string | null;
  readonly from: StandingOrder['from'];
  readonly accountNumber: string;
  readonly bankName: string;
  readonly routingNumber: string;
  readonly accountType: StandingOrder['accountType'];
  readonly recipientName: string;
  readonly amount: number;
  readonly description: string;
  readonly schedule: StandingOrder['schedule'];
  /** The next payment's date (YYYY-MM-DD); null when the order is not active or its schedule has ended. */
  readonly nextDate: string | null;
  readonly paymentsMade: number;
  /** The latest occurrences, newest first: date, status, the transfer's id or why it failed. */
  /** `transactionId`: the payer's debit transaction of the occurrence's transfer (API.md: "transaction id or reason"). */
  readonly occurrences: readonly { date: string; status: 'paid' | 'failed' | 'missed'; transferId?: string; transactionId?: string; reason?: string }[];
  readonly createdAt: string;
}

export function presentStandingOrder(order: StandingOrder): StandingOrderDto {
  return {
    _id: order.orderId,
    status: order.status,
    suspendedReason: order.suspendedReason,
    from: order.from,
    accountNumber: order.accountNumber,
    bankName: order.bankName,
    routingNumber: order.routingNumber,
    accountType: order.accountType,
    recipientName: order.recipientName,
    amount: centsToDollars(order.amountCents),
    description: order.description,
    schedule: order.schedule,
    nextDate: nextPaymentDate(order) ?? null,
    paymentsMade: order.paidCount,
    occurrences: order.recent.map((occurrence) => ({ ...occurrence, ...(occurrence.transferId ? { transactionId: debitTransactionIdOf(occurrence.transferId) } : {}) })),
    createdAt: order.createdAt,
  };
}
