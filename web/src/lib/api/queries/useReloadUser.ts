import { useEffect } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useLocation, useNavigate } from 'react-router';
import type { User } from '../types';
import { useSession } from '../../session/SessionContext';
import { queryKeys } from './queryKeys';

/**
 * Reloads the signed-in user (GET /api/auth/user) each time a screen that shows balances opens, and stores it in
 * the session. Spec: when that fails, the customer goes to /signin.
 */
export function useReloadUser() {
  const { user, refreshUser, forget } = useSession();
  const navigate = useNavigate();
  const location = useLocation();
  const userId = user?._id ?? 'anonymous';
  const query = useQuery<User>({
    queryKey: queryKeys.currentUser(userId),
    queryFn: refreshUser,
    staleTime: 0,
    retry: false,
    enabled: user !== null,
  });
  const failed = query.isError;
  useEffect(() => {
    if (!failed) return;
    forget();
    void navigate('/signin', { replace: true, state: { from: location.pathname } });
  }, [failed, forget, navigate, location.pathname]);
  return query;
}
