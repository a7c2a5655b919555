import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../apiClient';
import type { AccountKind, Envelope, Transaction } from '../types';
import { queryKeys } from './queryKeys';

export interface NewTransaction {
  amount: number;
  transactionType: 'debit' | 'credit';
  /** Calendar date, YYYY-MM-DD. */
  date: string;
  description: string;
  account: AccountKind;
  /** Why the admin posts it (at most 500 characters): kept in the audit log and on the journal entry. */
  reason?: string;
}

/** POST /api/transaction/admin/:userId: posts a credit or debit to one of the customer's accounts. */
export function useAddTransaction() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ userId, transaction }: { userId: string; transaction: NewTransaction }) =>
      api.post<Partial<Envelope<Transaction>>>(`/transaction/admin/${encodeURIComponent(userId)}`, transaction),
    onSuccess: (_answer, { userId }) => {
      void queryClient.invalidateQueries({ queryKey: queryKeys.adminUserTransactions(userId) });
      void queryClient.invalidateQueries({ queryKey: queryKeys.adminUser(userId) });
    },
  });
}
