import type { ReactNode } from 'react';
import { PageTitle as DocumentTitle } from '../../../components/PageTitle';

/** A page's heading in the customer area, also the document title ("Transfer · <bank name>"). */
export function PageTitle({ children, lead, actions }: { children: string; lead?: ReactNode; actions?: ReactNode }) {
  return (
    <div className="portal-page-head">
      <DocumentTitle>{children}</DocumentTitle>
      <div>
        <h1>{children}</h1>
        {lead ? <p className="portal-lead">{lead}</p> : null}
      </div>
      {actions ? <div className="portal-page-actions">{actions}</div> : null}
    </div>
  );
}
