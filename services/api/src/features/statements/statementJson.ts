import { centsToDollars, type AccountKind, type StatementLine } from '@bank/domain';
import type { StatementItem, StatementSource } from './statementSource';

/**
 * A transaction of a statement as the API shows it (dollars): the Transaction shape's `_id`, `transactionType` and
 * `account` (API.md "Shapes") beside the statement's own `id`, `type` and `kind`.
 */
export interface StatementTransactionJson {
  readonly _id: string;
  readonly id: string;
  readonly date: string;
  readonly description: string;
  readonly transactionType: 'credit' | 'debit';
  readonly type: 'credit' | 'debit';
  readonly account: AccountKind;
  readonly kind: StatementLine['kind'];
  readonly amount: number;
  readonly balanceAfter: number;
  readonly transferId?: string;
}

/** GET /statements (format=json): `data`. */
export interface StatementJson {
  readonly account: AccountKind;
  readonly accountNumber: string;
  readonly customerName: string;
  readonly from: string;
  readonly to: string;
  readonly openingBalance: number;
  readonly closingBalance: number;
  readonly totalIn: number;
  readonly totalOut: number;
  /** Oldest first, as the log recorded them. */
  readonly transactions: StatementTransactionJson[];
}

export function transactionOfLine(line: StatementLine, account: AccountKind): StatementTransactionJson {
  return {
    _id: line.transactionId,
    id: line.transactionId,
    date: line.date,
    description: line.description,
    transactionType: line.direction,
    type: line.direction,
    account,
    kind: line.kind,
    amount: centsToDollars(line.amountCents),
    balanceAfter: centsToDollars(line.balanceAfterCents),
    ...(line.transferId === null ? {} : { transferId: line.transferId }),
  };
}

/** The whole statement as one JSON document (the portal shows it; the downloads stream instead). */
export async function statementJson(source: StatementSource, items: AsyncIterable<StatementItem> = source.items): Promise<StatementJson> {
  const transactions: StatementTransactionJson[] = [];
  let openingCents = 0;
  let closing: { closingCents: number; totalInCents: number; totalOutCents: number } | undefined;
  for await (const item of items) {
    if (item.kind === 'opening') openingCents = item.openingCents;
    else if (item.kind === 'line') transactions.push(transactionOfLine(item.line, source.account));
    else closing = item.totals;
  }
  if (!closing) throw new Error('The statement ended without its totals');
  return {
    account: source.account,
    accountNumber: source.holder.accountNumber,
    customerName: source.holder.name,
    from: source.period.from,
    to: source.period.to,
    openingBalance: centsToDollars(openingCents),
    closingBalance: centsToDollars(closing.closingCents),
    totalIn: centsToDollars(closing.totalInCents),
    totalOut: centsToDollars(closing.totalOutCents),
    transactions,
  };
}
