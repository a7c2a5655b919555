import type { components } from '../../lib/api/openApiTypes';

/** GET /api/statements (format=json) `data`: amounts in dollars (docs/api.md "Statements"), as the API's document says. */
export type Statement = components['schemas']['Statement'];
export type StatementTransaction = Statement['transactions'][number];
export type StatementAccount = Statement['account'];

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
