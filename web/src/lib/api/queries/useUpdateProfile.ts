import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../apiClient';
import type { Envelope, User } from '../types';
import { useSession } from '../../session/SessionContext';

export interface ProfileChange {
  firstName: string;
  lastName: string;
  email: string;
  phoneNumber: string;
  address: string;
  state: string;
}

/**
 * PATCH /api/user/profile; on success the stored user is replaced by the server's copy, then reloaded from
 * GET /api/auth/user, which says whether the (possibly new) e-mail address is confirmed: a changed address brings
 * the portal's confirmation banner back at once.
 */
export function useUpdateProfile() {
  const { setUser, refreshUser } = useSession();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (change: ProfileChange) => api.patch<Envelope<User>>('/user/profile', change),
    onSuccess: (answer) => {
      setUser(answer.data);
      refreshUser().catch((error: unknown) => console.warn('Could not reload the signed-in user.', error));
      void queryClient.invalidateQueries({ queryKey: ['auth', 'user'] });
    },
  });
}
