import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../apiClient';
import type { Beneficiary, Envelope } from '../types';
import { queryKeys } from './queryKeys';

/** POST /api/beneficiaries {name, accountNumber, bankName?}; answers 'Beneficiary added successfully'. */
export function useAddBeneficiary() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (beneficiary: { name: string; accountNumber: string; bankName?: string }) =>
      api.post<Partial<Envelope<Beneficiary>>>('/beneficiaries', beneficiary),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: queryKeys.beneficiaries() }),
  });
}
