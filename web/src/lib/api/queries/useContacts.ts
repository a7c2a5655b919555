import { useQuery } from '@tanstack/react-query';
import { api } from '../apiClient';
import type { ContactMessage, Envelope } from '../types';
import { queryKeys } from './queryKeys';

/** GET /api/contacts (admin only): the messages sent through the contact form. */
export function useContacts() {
  return useQuery({
    queryKey: queryKeys.contacts(),
    queryFn: ({ signal }) => api.get<Envelope<ContactMessage[]>>('/contacts', { signal }).then((answer) => answer.data),
  });
}
