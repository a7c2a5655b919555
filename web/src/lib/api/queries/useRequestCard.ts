import { useMutation } from '@tanstack/react-query';
import { api } from '../apiClient';

/** POST /api/cards/requests: asks the bank for a card; answers 'Card request sent we will get back to you'. */
export function useRequestCard() {
  return useMutation({
    mutationFn: (cardType?: string) => api.post<{ message?: string }>('/cards/requests', cardType ? { cardType } : {}),
  });
}
