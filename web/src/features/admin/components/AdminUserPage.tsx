import type { ReactNode } from 'react';
import { useParams } from 'react-router';
import { Alert } from '../../../components/Alert';
import { LoadingBlock } from '../../../components/Spinner';
import { errorMessage } from '../../../lib/api/apiError';
import { useAdminUser } from '../../../lib/api/queries/useAdminUser';
import type { User } from '../../../lib/api/types';

/** An admin page about the user of the route's `:id`: loading and error states, then `children` with the user. */
export function AdminUserPage({ children }: { children: (user: User) => ReactNode }) {
  const { id = '' } = useParams();
  const user = useAdminUser(id);
  return (
    <div className="admin-page">
      {user.isPending ? <LoadingBlock label="Loading user…" /> : null}
      {user.isError ? <Alert kind="error">{errorMessage(user.error)}</Alert> : null}
      {user.data ? children(user.data) : null}
    </div>
  );
}
