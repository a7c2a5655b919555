import { keepPreviousData, useInfiniteQuery, useMutation, useQuery } from '@tanstack/react-query';
import { api } from '../../lib/api/apiClient';
import type { Page } from '../../lib/api/paging';
import type { Envelope } from '../../lib/api/types';
import { fetchDownload } from '../../lib/api/downloadFile';
import type { AuditEvent, AuditUser, BalancesAt, StaffLogEntry, StaffLogFilters, VerifyReport } from './auditTypes';

export const auditKeys = {
  users: (search: string, cursor: string) => ['audit', 'users', search, cursor] as const,
  events: (userId: string) => ['audit', 'events', userId] as const,
  balances: (userId: string, at: string) => ['audit', 'balances', userId, at] as const,
  log: (filters: StaffLogFilters, cursor: string) => ['audit', 'log', filters, cursor] as const,
};

/** GET /api/audit/users?search&cursor: one page of the customers found (keyset paged: `next` opens the following one). */
export function useAuditUserSearch(search: string, cursor?: string) {
  return useQuery<Page<AuditUser>>({
    queryKey: auditKeys.users(search, cursor ?? ''),
    queryFn: ({ signal }) => api.get<Page<AuditUser>>('/audit/users', { query: { search, ...(cursor ? { cursor } : {}) }, signal }),
    enabled: search.trim().length > 0,
    placeholderData: keepPreviousData,
  });
}

/**
 * GET /api/audit/users/:id/events: the customer's events, oldest first. The server answers them all at once up to
 * 1,000, else a first page and a cursor; `fetchNextPage` then loads the following ones (a merchant has 100,000).
 */
export function useCustomerEvents(userId: string) {
  return useInfiniteQuery({
    queryKey: auditKeys.events(userId),
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam, signal }) =>
      api.get<Partial<Page<AuditEvent>> & { data: AuditEvent[] }>(`/audit/users/${encodeURIComponent(userId)}/events`, {
        ...(pageParam ? { query: { cursor: pageParam } } : {}),
        signal,
      }),
    getNextPageParam: (lastPage) => lastPage.next ?? undefined,
    select: (answer) => answer.pages.flatMap((page) => page.data),
  });
}

export function useBalancesAt(userId: string, at: string) {
  return useQuery<BalancesAt>({
    queryKey: auditKeys.balances(userId, at),
    queryFn: ({ signal }) =>
      api.get<Envelope<BalancesAt>>(`/audit/users/${encodeURIComponent(userId)}/balances`, { query: { at }, signal }).then((answer) => answer.data),
    placeholderData: keepPreviousData,
  });
}

/** GET /api/audit/log?…&cursor: one page of the staff actions, newest first. */
export function useStaffLog(filters: StaffLogFilters, cursor?: string) {
  return useQuery<Page<StaffLogEntry>>({
    queryKey: auditKeys.log(filters, cursor ?? ''),
    queryFn: ({ signal }) => api.get<Page<StaffLogEntry>>('/audit/log', { query: { ...filters, ...(cursor ? { cursor } : {}) }, signal }),
    placeholderData: keepPreviousData,
  });
}

/** Verification reads the whole log: it runs when the auditor asks, not on every visit. */
export function useVerify() {
  return useMutation({
    mutationFn: () => api.get<Envelope<VerifyReport>>('/audit/verify').then((answer) => answer.data),
  });
}

/** The customer's events as CSV (a file download needs the bearer token, so it is fetched, not linked). */
export async function fetchEventsCsv(userId: string): Promise<Blob> {
  const { blob } = await fetchDownload(`/audit/users/${encodeURIComponent(userId)}/events`, { format: 'csv' });
  return blob;
}
