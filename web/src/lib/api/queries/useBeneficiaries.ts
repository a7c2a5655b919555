import { useQuery } from '@tanstack/react-query';
import { api } from '../apiClient';
import type { Beneficiary, Envelope } from '../types';
import { queryKeys } from './queryKeys';

/** GET /api/beneficiaries: the bank's directory of payees. */
export function useBeneficiaries() {
  return useQuery({
    queryKey: queryKeys.beneficiaryList(),
    queryFn: ({ signal }) => api.get<Envelope<Beneficiary[]>>('/beneficiaries', { signal }).then((answer) => answer.data),
  });
}
