import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import { api } from '../../lib/api/apiClient';
import { ApiError } from '../../lib/api/apiError';
import type { Page } from '../../lib/api/paging';
import type { Envelope } from '../../lib/api/types';
import { readToken } from '../../lib/session/sessionStorage';
import type { AuditEvent, AuditUser, BalancesAt, StaffLogEntry, StaffLogFilters, VerifyReport } from './auditTypes';

const API_BASE = (import.meta.env.VITE_API_URL as string | undefined)?.replace(/\/$/, '') ?? '/api';

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
  const token = readToken();
  const response = await fetch(`${API_BASE}/audit/users/${encodeURIComponent(userId)}/events?format=csv`, {
    headers: { Accept: 'text/csv', ...(token ? { Authorization: `Bearer ${token}` } : {}) },
    credentials: 'include',
  });
  if (!response.ok) {
    let message = response.statusText || 'An error occurred';
    try {
      message = ((await response.json()) as { message?: string }).message ?? message;
    } catch {
      // not JSON: keep the status text
    }
    throw new ApiError(response.status, message);
  }
  return response.blob();
}
