import { useEffect, useState, type FormEvent } from 'react';
import { Link, useSearchParams } from 'react-router';
import { Alert } from '../../../components/Alert';
import { Button } from '../../../components/Button';
import { EmptyState } from '../../../components/EmptyState';
import { TextField } from '../../../components/Field';
import { QueryPager } from '../../../components/Pager';
import { LoadingBlock } from '../../../components/Spinner';
import { errorMessage } from '../../../lib/api/apiError';
import { useCursorTrail } from '../../../lib/api/paging';
import { ADMIN_USERS_PAGE, useAdminUserPage } from '../../../lib/api/queries/useAdminUsers';
import { useDebouncedValue } from '../../../lib/hooks/useDebouncedValue';
import { AdminPageTitle } from '../components/AdminPageTitle';
import { fullName } from '../components/adminLabels';
import { useFlashMessage } from '../../../lib/router/useFlashMessage';

/** How long typing must pause before the search runs. */
export const SEARCH_DEBOUNCE_MS = 300;

/**
 * /admin/users: the customers (GET /api/user/admin?search&limit&cursor), 50 a page with Previous / Next (keyset
 * pages: no count, so nothing waits for one), searched as you type (once typing pauses; Enter searches at once).
 */
export function UsersPage() {
  const [params, setParams] = useSearchParams();
  const search = params.get('search') ?? '';
  const [text, setText] = useState(search);
  const typed = useDebouncedValue(text.trim(), SEARCH_DEBOUNCE_MS);
  const trail = useCursorTrail(search);
  const users = useAdminUserPage(search, trail.cursor);
  const rows = users.data?.data;
  const [flash, setFlash] = useFlashMessage();

  // The search follows the typing once it pauses; the address keeps it (replace: no history entry per pause).
  useEffect(() => {
    if (typed !== search) setParams(typed ? { search: typed } : {}, { replace: true });
    // Only a new pause in the typing searches: a search changed by the address itself is not undone here.
  }, [typed]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setParams(text.trim() ? { search: text.trim() } : {});
  };

  return (
    <div className="admin-page">
      <AdminPageTitle lead="Customers of the bank. Open one to see and change their details.">Users</AdminPageTitle>
      {flash ? (
        <Alert kind="success" onDismiss={() => setFlash(null)}>
          {flash}
        </Alert>
      ) : null}
      <form className="admin-search" role="search" onSubmit={submit}>
        <TextField label="Search users" type="search" placeholder="Name, e-mail or account number" value={text} onChange={(event) => setText(event.target.value)} />
        <Button type="submit">Search</Button>
        {search ? (
          <Button
            variant="secondary"
            onClick={() => {
              setText('');
              setParams({});
            }}
          >
            Clear
          </Button>
        ) : null}
      </form>
      {users.isPending ? <LoadingBlock label="Loading users…" /> : null}
      {users.isError ? <Alert kind="error">{errorMessage(users.error)}</Alert> : null}
      {rows?.length === 0 && !trail.hasPrevious ? <EmptyState title={search ? `No user matches “${search}”.` : 'No users yet.'} /> : null}
      {rows && rows.length > 0 ? (
        <div className="table-wrap">
          <table className="table admin-table">
            <caption className="visually-hidden">Users</caption>
            <thead>
              <tr>
                <th scope="col">#</th>
                <th scope="col">First name</th>
                <th scope="col">Last name</th>
                <th scope="col">E-mail</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {rows.map((user, index) => (
                <tr key={user._id}>
                  <td>{(trail.pageNumber - 1) * ADMIN_USERS_PAGE + index + 1}</td>
                  <td>{user.firstName}</td>
                  <td>{user.lastName}</td>
                  <td className="admin-wrap">{user.email}</td>
                  <td>
                    <Link to={`/admin/users/${user._id}`} className="btn btn-secondary admin-small-btn" aria-label={`View ${fullName(user)}`}>
                      View
                    </Link>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      <QueryPager label="Users" trail={trail} query={users} />
    </div>
  );
}
