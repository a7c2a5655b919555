import type { ReactNode } from 'react';
import { Navigate, NavLink, Outlet, useLocation, useNavigate } from 'react-router';
import { Button } from '../../components/Button';
import { LoadingBlock } from '../../components/Spinner';
import { isAdminUser, type ReturnState } from '../../lib/session/guards';
import { useSession } from '../../lib/session/SessionContext';
import './audit.css';

/** Auditors and admins only; anyone else goes to /signin (and comes back here after signing in). */
export function RequireAuditor({ children }: { children: ReactNode }) {
  const { isAuthenticated, user } = useSession();
  const location = useLocation();
  if (isAuthenticated && !user) return <LoadingBlock label="Loading your session…" />;
  const allowed = isAuthenticated && (user?.role === 'auditor' || isAdminUser(user));
  if (!allowed) return <Navigate to="/signin" replace state={{ from: location.pathname + location.search } satisfies ReturnState} />;
  return <>{children}</>;
}

/** The audit area's frame: navigation between its screens, who is signed in, sign-out. */
export function AuditLayout() {
  const { user, signOut } = useSession();
  const navigate = useNavigate();
  return (
    <div className="audit-shell">
      <header className="audit-header">
        <div className="audit-brand">
          <span className="audit-brand-name">Summit Bank</span>
          <span className="audit-brand-area">Audit</span>
        </div>
        <nav aria-label="Audit" className="audit-nav">
          <NavLink to="/audit" end>
            Customers
          </NavLink>
          <NavLink to="/audit/log">Staff log</NavLink>
          <NavLink to="/audit/ledger">Ledger</NavLink>
          <NavLink to="/audit/ach">ACH</NavLink>
          <NavLink to="/audit/verify">Verify</NavLink>
          <NavLink to="/audit/security">Security</NavLink>
          {isAdminUser(user) ? <NavLink to="/admin/dashboard">Admin</NavLink> : null}
        </nav>
        <div className="audit-user">
          <span className="audit-muted">
            {user?.email} ({user?.role})
          </span>
          <Button
            variant="secondary"
            onClick={() => {
              void signOut().then(() => navigate('/signin'));
            }}
          >
            Sign out
          </Button>
        </div>
      </header>
      <main className="audit-main">
        <Outlet />
      </main>
    </div>
  );
}
