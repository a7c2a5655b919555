import { useMutation } from '@tanstack/react-query';
import { api } from '../apiClient';

/** POST /api/auth/change-password {oldPassword, newPassword}; answers {message}. */
export function useChangePassword() {
  return useMutation({
    mutationFn: (change: { oldPassword: string; newPassword: string }) => api.post<{ message?: string }>('/auth/change-password', change),
  });
}
