import { useQuery } from '@tanstack/react-query';
import { api } from '../apiClient';
import type { Beneficiary, Envelope } from '../types';
import { queryKeys } from './queryKeys';

/**
 * The recipient lookup: GET /api/beneficiaries?accountNumber=N (the directory and this bank's own accounts).
 * Resolves with the name on the account, or null when nothing matches.
 */
export function useAccountLookup(accountNumber: string, enabled: boolean) {
  return useQuery({
    queryKey: queryKeys.accountLookup(accountNumber),
    queryFn: ({ signal }) =>
      api
        .get<Envelope<Beneficiary[]>>('/beneficiaries', { query: { accountNumber }, signal })
        .then((answer) => answer.data.find((entry) => entry.accountNumber === accountNumber)?.name ?? answer.data[0]?.name ?? null),
    enabled,
    retry: false,
    staleTime: 60_000,
  });
}
