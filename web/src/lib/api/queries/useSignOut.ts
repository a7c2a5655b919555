import { useCallback } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { useSession } from '../../session/SessionContext';

/**
 * Logout: the server revokes the token (session.signOut), token and user are cleared, the query cache is
 * emptied so nothing of this person stays in memory, and the browser goes to `to` (default /signin).
 */
export function useSignOut(to = '/signin') {
  const { signOut } = useSession();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return useCallback(async () => {
    await signOut(to);
    queryClient.clear();
    await navigate(to, { replace: true });
  }, [signOut, queryClient, navigate, to]);
}
