import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { PageTitle as DocumentTitle } from '../../../components/PageTitle';

/** An admin page's heading (and document title), with an optional way back and actions. */
export function AdminPageTitle({ children, back, lead, actions }: { children: string; back?: { to: string; label: string }; lead?: ReactNode; actions?: ReactNode }) {
  return (
    <div className="admin-page-head">
      <DocumentTitle>{`${children} · Admin`}</DocumentTitle>
      <div>
        {back ? (
          <Link to={back.to} className="admin-back">
            ← {back.label}
          </Link>
        ) : null}
        <h1>{children}</h1>
        {lead ? <p className="admin-lead">{lead}</p> : null}
      </div>
      {actions ? <div className="admin-actions">{actions}</div> : null}
    </div>
  );
}
