import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import { LoadingBlock } from '../../components/Spinner';
import type { User } from '../api/types';
import { useSession } from './SessionContext';

/** Router state a guard leaves behind, so the sign-in screen can send the visitor back where they were going. */
export interface ReturnState {
  readonly from: string;
}

/** True for staff with the admin role (the contract's `isAdmin` flag or `role: "admin"`). */
export function isAdminUser(user: User | null | undefined): boolean {
  return Boolean(user && (user.isAdmin || user.role === 'admin'));
}

/** Reads the `from` a guard stored in the router state, if it is a path inside this app. */
export function returnPath(state: unknown): string | undefined {
  if (typeof state !== 'object' || state === null || !('from' in state)) return undefined;
  const from = (state as { from: unknown }).from;
  return typeof from === 'string' && from.startsWith('/') && !from.startsWith('//') ? from : undefined;
}

/**
 * The customer area: a visitor without a session goes to /signin (as the spec's 401 handling does), or just after a
 * logout to the page the logout leads to. With a token
 * whose user is still loading, a spinner shows meanwhile.
 */
export function RequireAuth({ children }: { children: ReactNode }) {
  const { isAuthenticated, user, exitPath } = useSession();
  const location = useLocation();
  if (!isAuthenticated) return <Navigate to={exitPath ?? '/signin'} replace state={{ from: location.pathname } satisfies ReturnState} />;
  if (!user) return <LoadingBlock label="Loading your session…" />;
  return <>{children}</>;
}

/**
 * The admin area: a visitor without a session goes to /signin; a signed-in customer goes to /admin/login to sign
 * in as an admin.
 */
export function RequireAdmin({ children }: { children: ReactNode }) {
  const { isAuthenticated, user, exitPath } = useSession();
  const location = useLocation();
  if (!isAuthenticated) return <Navigate to={exitPath ?? '/signin'} replace state={{ from: location.pathname } satisfies ReturnState} />;
  if (!user) return <LoadingBlock label="Loading your session…" />;
  if (!isAdminUser(user)) return <Navigate to="/admin/login" replace state={{ from: location.pathname } satisfies ReturnState} />;
  return <>{children}</>;
}
