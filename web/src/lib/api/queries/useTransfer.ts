import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../apiClient';
import type { AccountKind, Envelope, Transaction } from '../types';
import { useSession } from '../../session/SessionContext';
import { queryKeys } from './queryKeys';

export interface TransferRequest {
  from: AccountKind;
  amount: number;
  accountNumber: string;
  bankName: string;
  routingNumber: string;
  accountType: AccountKind;
  to: string;
  description: string;
  paymentPin: string;
}

/** POST /api/transaction/transfer with an Idempotency-Key, so one attempt is executed at most once. */
export function useTransfer() {
  const queryClient = useQueryClient();
  const userId = useSession().user?._id ?? 'anonymous';
  return useMutation({
    mutationFn: ({ request, idempotencyKey }: { request: TransferRequest; idempotencyKey: string }) =>
      api.post<Envelope<Transaction>>('/transaction/transfer', request, { idempotencyKey }),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: queryKeys.transactions(userId) });
      void queryClient.invalidateQueries({ queryKey: queryKeys.currentUser(userId) });
    },
  });
}
