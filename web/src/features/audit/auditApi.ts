import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import { api } from '../../lib/api/apiClient';
import type { Envelope } from '../../lib/api/types';
import { fetchDownload } from '../../lib/api/downloadFile';
import type { AuditEvent, AuditUser, BalancesAt, StaffLogEntry, StaffLogFilters, VerifyReport } from './auditTypes';

export const auditKeys = {
  users: (search: string) => ['audit', 'users', search] as const,
  events: (userId: string) => ['audit', 'events', userId] as const,
  balances: (userId: string, at: string) => ['audit', 'balances', userId, at] as const,
  log: (filters: StaffLogFilters) => ['audit', 'log', filters] as const,
};

export function useAuditUserSearch(search: string) {
  return useQuery<AuditUser[]>({
    queryKey: auditKeys.users(search),
    queryFn: ({ signal }) => api.get<Envelope<AuditUser[]>>('/audit/users', { query: { search }, signal }).then((answer) => answer.data),
    enabled: search.trim().length > 0,
    placeholderData: keepPreviousData,
  });
}

export function useCustomerEvents(userId: string) {
  return useQuery({
    queryKey: auditKeys.events(userId),
    queryFn: ({ signal }) =>
      api.get<Envelope<AuditEvent[]>>(`/audit/users/${encodeURIComponent(userId)}/events`, { signal }).then((answer) => answer.data),
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

export function useStaffLog(filters: StaffLogFilters) {
  return useQuery<StaffLogEntry[]>({
    queryKey: auditKeys.log(filters),
    queryFn: ({ signal }) => api.get<Envelope<StaffLogEntry[]>>('/audit/log', { query: { ...filters }, signal }).then((answer) => answer.data),
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
