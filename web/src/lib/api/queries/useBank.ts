import { useQuery } from '@tanstack/react-query';
import { api } from '../apiClient';
import { queryKeys } from './queryKeys';

/** GET /api/bank: the bank's identity; its routing number is the server's configuration (BANK_ROUTING_NUMBER). */
export interface BankInfo {
  readonly name: string;
  readonly routingNumber: string;
  readonly address: string;
  readonly phone: string;
  readonly email: string;
}

export function useBank() {
  return useQuery<BankInfo>({
    queryKey: queryKeys.bank(),
    queryFn: async ({ signal }) => (await api.get<{ data: BankInfo }>('/bank', { signal })).data,
    staleTime: 5 * 60_000,
    retry: 1,
  });
}
