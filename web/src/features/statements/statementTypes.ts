/** GET /api/statements (format=json) `data`: amounts in dollars (docs/api.md "Statements"). */
export interface StatementTransaction {
  readonly id: string;
  readonly date: string;
  readonly description: string;
  readonly type: 'credit' | 'debit';
  readonly kind: string;
  readonly amount: number;
  readonly balanceAfter: number;
  readonly transferId?: string;
}

export interface Statement {
  readonly account: StatementAccount;
  readonly accountNumber: string;
  readonly customerName: string;
  readonly from: string;
  readonly to: string;
  readonly openingBalance: number;
  readonly closingBalance: number;
  readonly totalIn: number;
  readonly totalOut: number;
  readonly transactions: readonly StatementTransaction[];
}

export type StatementAccount = 'checking' | 'savings';

/** What a statement is asked for. */
export interface StatementRequest {
  readonly account: StatementAccount;
  readonly from: string;
  readonly to: string;
}

/** The API path of a statement: the customer's own, or (staff) a customer's by id. */
export function statementPath(userId: string | undefined): string {
  return userId === undefined ? '/statements' : `/audit/users/${encodeURIComponent(userId)}/statements`;
}
