import { useEffect, type ReactNode } from 'react';

/** A page's heading, also used as the document title. */
export function PageTitle({ children, lead, actions }: { children: string; lead?: ReactNode; actions?: ReactNode }) {
  useEffect(() => {
    document.title = `${children} · Summit Bank`;
  }, [children]);
  return (
    <div className="portal-page-head">
      <div>
        <h1>{children}</h1>
        {lead ? <p className="portal-lead">{lead}</p> : null}
      </div>
      {actions ? <div className="portal-page-actions">{actions}</div> : null}
    </div>
  );
}
