import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../lib/api/apiClient';
import { fetchDownload, saveBlob } from '../../lib/api/downloadFile';
import type { Envelope } from '../../lib/api/types';
import type { Interest, Rate, RateChange } from './interestTypes';

export const interestKeys = {
  rates: () => ['rates'] as const,
  mine: (year: number | undefined) => ['interest', 'mine', year ?? 'current'] as const,
  customer: (userId: string, year: number | undefined) => ['interest', 'customer', userId, year ?? 'current'] as const,
};

const unwrap = <T>(answer: Envelope<T>) => answer.data;

/** The interest route of the signed-in customer, or (staff) of `userId`. */
export function interestPath(userId?: string): string {
  return userId ? `/audit/users/${encodeURIComponent(userId)}/interest` : '/interest';
}

/** GET /rates: every account type's rate in force and the changes scheduled. */
export function useRates() {
  return useQuery({ queryKey: interestKeys.rates(), queryFn: ({ signal }) => api.get<Envelope<Rate[]>>('/rates', { signal }).then(unwrap) });
}

/** GET /interest?year= (the customer), or GET /audit/users/:id/interest?year= (staff); the business date's year without one. */
export function useInterest(year: number | undefined, userId?: string) {
  return useQuery({
    queryKey: userId ? interestKeys.customer(userId, year) : interestKeys.mine(year),
    queryFn: ({ signal }) => api.get<Envelope<Interest>>(interestPath(userId), { query: { year }, signal }).then(unwrap),
  });
}

/** PUT /admin/rates: schedules a change; the answer is the new list of rates. */
export function useScheduleRate() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (change: RateChange) => api.put<Envelope<Rate[]>>('/admin/rates', change).then(unwrap),
    onSuccess: (rates) => queryClient.setQueryData(interestKeys.rates(), rates),
  });
}

/** The year's interest statement (PDF), fetched with the session's token and saved. */
export async function downloadInterestPdf(year: number, userId?: string): Promise<void> {
  const { blob, fileName } = await fetchDownload(interestPath(userId), { year: String(year), format: 'pdf' }, `interest-${year}.pdf`);
  saveBlob(blob, fileName);
}
