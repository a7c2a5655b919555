import { Suspense } from 'react';
import { Link, Outlet, useLocation } from 'react-router';
import { PageTitle } from '../../components/PageTitle';
import { LoadingBlock } from '../../components/Spinner';
import { isAdminUser } from '../../lib/session/guards';
import { useSession } from '../../lib/session/SessionContext';
import { ACH_PATH } from './achFormat';
import './ach.css';

/**
 * /audit/ach/*: the bank's ACH files (auditors and admins) and, for admins, the upload of returns and incoming files.
 * "Files" stays current on a file's page.
 */
export function AchLayout() {
  const { user } = useSession();
  const onUpload = useLocation().pathname.startsWith(`${ACH_PATH}/upload`);
  return (
    <section className="audit-page ach-page">
      <PageTitle>ACH</PageTitle>
      <h1>ACH</h1>
      <p className="audit-muted ach-lead">
        External transfers leave the bank as entries of NACHA files; returns and incoming credits arrive as NACHA files too.
      </p>
      <nav aria-label="ACH" className="ach-nav">
        <Link to={ACH_PATH} className={onUpload ? undefined : 'active'} aria-current={onUpload ? undefined : 'page'}>
          Files
        </Link>
        {isAdminUser(user) ? (
          <Link to={`${ACH_PATH}/upload`} className={onUpload ? 'active' : undefined} aria-current={onUpload ? 'page' : undefined}>
            Upload returns or incoming
          </Link>
        ) : null}
      </nav>
      <Suspense fallback={<LoadingBlock />}>
        <Outlet />
      </Suspense>
    </section>
  );
}
