import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '../apiClient';
import type { Page } from '../paging';
import type { ContactMessage } from '../types';
import { queryKeys } from './queryKeys';

/** GET /api/contacts?cursor (admin only): one page of the messages sent through the contact form, newest first. */
export function useContacts(cursor?: string) {
  return useQuery<Page<ContactMessage>>({
    queryKey: [...queryKeys.contacts(), 'page', cursor ?? ''],
    queryFn: ({ signal }) => api.get<Page<ContactMessage>>('/contacts', { query: cursor ? { cursor } : {}, signal }),
    placeholderData: keepPreviousData,
  });
}
