import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '../apiClient';
import type { Page } from '../paging';
import type { Beneficiary } from '../types';
import { queryKeys } from './queryKeys';

/** GET /api/beneficiaries?cursor: one page of the bank's directory of payees, newest first. */
export function useBeneficiaries(cursor?: string) {
  return useQuery<Page<Beneficiary>>({
    queryKey: [...queryKeys.beneficiaryList(), 'page', cursor ?? ''],
    queryFn: ({ signal }) => api.get<Page<Beneficiary>>('/beneficiaries', { query: cursor ? { cursor } : {}, signal }),
    placeholderData: keepPreviousData,
  });
}
