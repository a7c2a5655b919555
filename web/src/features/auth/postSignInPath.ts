import type { User } from '../../lib/api/types';

/** Pages a returning visitor should not be sent back to after signing in. */
const AUTH_PAGES = ['/signin', '/signup', '/account-verification', '/forgot-password', '/reset-password', '/verify-email'];

/**
 * The path a guard or the 401 handler put in the router state as `from` (a path string or a location object),
 * if it is an in-app path.
 */
export function fromState(state: unknown): string | undefined {
  if (typeof state !== 'object' || state === null || !('from' in state)) return undefined;
  const from: unknown = state.from;
  let path: string | undefined;
  if (typeof from === 'string') path = from;
  else if (typeof from === 'object' && from !== null && 'pathname' in from && typeof from.pathname === 'string') {
    const search = 'search' in from && typeof from.search === 'string' ? from.search : '';
    const hash = 'hash' in from && typeof from.hash === 'string' ? from.hash : '';
    path = `${from.pathname}${search}${hash}`;
  }
  if (!path || !path.startsWith('/') || path.startsWith('//')) return undefined;
  return path;
}

/**
 * Where sign-in leads, as the spec has it: a customer awaiting verification goes to /account-verification, every
 * other customer to /account/home. Staff have no customer area: they go back to the staff page a guard sent them
 * from, or to theirs (/audit for an auditor, /admin/dashboard for an admin).
 */
export function postSignInPath(user: Pick<User, 'verificationStatus'> & Partial<Pick<User, 'role' | 'isAdmin'>>, from?: string): string {
  const admin = user.isAdmin === true || user.role === 'admin';
  const auditor = !admin && user.role === 'auditor';
  if (!admin && !auditor) return user.verificationStatus === 'awaiting' ? '/account-verification' : '/account/home';
  const staffPages = admin ? ['/admin', '/audit'] : ['/audit'];
  if (from && !AUTH_PAGES.some((page) => from === page || from.startsWith(`${page}?`) || from.startsWith(`${page}#`))) {
    if (staffPages.some((area) => from === area || from.startsWith(`${area}/`) || from.startsWith(`${area}?`))) return from;
  }
  return auditor ? '/audit' : '/admin/dashboard';
}
