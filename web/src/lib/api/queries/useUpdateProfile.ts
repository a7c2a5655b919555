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

/** PATCH /api/user/profile; on success the stored user is replaced by the server's copy. */
export function useUpdateProfile() {
  const { setUser } = useSession();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (change: ProfileChange) => api.patch<Envelope<User>>('/user/profile', change),
    onSuccess: (answer) => {
      setUser(answer.data);
      void queryClient.invalidateQueries({ queryKey: ['auth', 'user'] });
    },
  });
}
