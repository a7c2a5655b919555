import { useQuery } from '@tanstack/react-query';
import { api } from '../../lib/api/apiClient';
import type { Envelope } from '../../lib/api/types';
import { statementPath, type Statement, type StatementRequest } from './statementTypes';

/**
 * A statement as JSON. `owner` keys the cache by whose session asks (the signed-in customer's id), `userId` names
 * the customer for staff (undefined: the signed-in customer's own).
 */
export function useStatement(owner: string, request: StatementRequest | undefined, userId?: string) {
  return useQuery({
    queryKey: ['statements', owner, userId ?? 'own', request?.account, request?.from, request?.to] as const,
    queryFn: ({ signal }) => api.get<Envelope<Statement>>(statementPath(userId), { query: { ...request }, signal }).then((answer) => answer.data),
    enabled: request !== undefined,
  });
}
