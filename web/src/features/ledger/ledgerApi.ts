import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../lib/api/apiClient';
import type { Page } from '../../lib/api/paging';
import type { Envelope } from '../../lib/api/types';
import type { BusinessDate, BusinessDateAdvance, DayClose, LedgerAccountRow, LedgerEntry, LedgerEntryFilters, Reconciliation, TrialBalance } from './ledgerTypes';

/** How many lines or closes one "Show more" asks for (the API allows up to 500). */
export const LEDGER_PAGE_SIZE = 100;

export const ledgerKeys = {
  all: () => ['ledger'] as const,
  accounts: () => ['ledger', 'accounts'] as const,
  trialBalance: (at: string) => ['ledger', 'trial-balance', at] as const,
  entries: (key: string, filters: LedgerEntryFilters) => ['ledger', 'entries', key, filters] as const,
  reconciliation: () => ['ledger', 'reconciliation'] as const,
  days: () => ['ledger', 'days'] as const,
  businessDate: () => ['business-date'] as const,
};

const unwrap = <T>(answer: Envelope<T>) => answer.data;

/** GET /audit/ledger/accounts: the chart of accounts with each account's debits, credits and balance. */
export function useLedgerAccounts() {
  return useQuery({
    queryKey: ledgerKeys.accounts(),
    queryFn: ({ signal }) => api.get<Envelope<LedgerAccountRow[]>>('/audit/ledger/accounts', { signal }).then(unwrap),
  });
}

/** GET /audit/ledger/trial-balance?at=: `at` an ISO instant, or undefined for now (read model). */
export function useTrialBalance(at: string | undefined) {
  return useQuery({
    queryKey: ledgerKeys.trialBalance(at ?? 'now'),
    queryFn: ({ signal }) => api.get<Envelope<TrialBalance>>('/audit/ledger/trial-balance', { query: { at }, signal }).then(unwrap),
  });
}

/** GET /audit/ledger/accounts/:key/entries: the account's journal lines, a page at a time (`fetchNextPage`: Show more). */
export function useLedgerEntries(key: string, filters: LedgerEntryFilters) {
  return useInfiniteQuery({
    queryKey: ledgerKeys.entries(key, filters),
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam, signal }) =>
      api.get<Page<LedgerEntry>>(`/audit/ledger/accounts/${encodeURIComponent(key)}/entries`, {
        query: { ...filters, limit: LEDGER_PAGE_SIZE, cursor: pageParam },
        signal,
      }),
    getNextPageParam: (lastPage) => lastPage.next ?? undefined,
    select: (answer) => answer.pages.flatMap((page) => page.data),
  });
}

/** GET /audit/ledger/reconciliation: control accounts against their subledgers, clearing accounts against open items. */
export function useReconciliation() {
  return useQuery({
    queryKey: ledgerKeys.reconciliation(),
    queryFn: ({ signal }) => api.get<Envelope<Reconciliation>>('/audit/ledger/reconciliation', { signal }).then(unwrap),
  });
}

/** GET /audit/ledger/days: the day closes, newest first, a page at a time. */
export function useDayCloses() {
  return useInfiniteQuery({
    queryKey: ledgerKeys.days(),
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam, signal }) => api.get<Page<DayClose>>('/audit/ledger/days', { query: { limit: LEDGER_PAGE_SIZE, cursor: pageParam }, signal }),
    getNextPageParam: (lastPage) => lastPage.next ?? undefined,
    select: (answer) => answer.pages.flatMap((page) => page.data),
  });
}

/** GET /admin/business-date (admins and auditors): the open business date, the mode and the last closed date. */
export function useBusinessDate() {
  return useQuery({
    queryKey: ledgerKeys.businessDate(),
    queryFn: ({ signal }) => api.get<Envelope<BusinessDate>>('/admin/business-date', { signal }).then(unwrap),
  });
}

/** POST /admin/business-date/advance {days} (admins, manual mode): closes the open date and the following ones. */
export function useAdvanceBusinessDate() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (days: number) => api.post<Envelope<BusinessDateAdvance>>('/admin/business-date/advance', { days }).then(unwrap),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: ledgerKeys.businessDate() });
      void queryClient.invalidateQueries({ queryKey: ledgerKeys.all() });
    },
  });
}
