import { useState, type FormEvent } from 'react';
import { Link, useSearchParams } from 'react-router';
import { Alert } from '../../../components/Alert';
import { Button } from '../../../components/Button';
import { EmptyState } from '../../../components/EmptyState';
import { TextField } from '../../../components/Field';
import { LoadingBlock } from '../../../components/Spinner';
import { errorMessage } from '../../../lib/api/apiError';
import { useAdminUsers } from '../../../lib/api/queries/useAdminUsers';
import { AdminPageTitle } from '../components/AdminPageTitle';
import { fullName } from '../components/adminLabels';
import { useFlashMessage } from '../../../lib/router/useFlashMessage';

/** /admin/users: every customer (GET /api/user/admin?search), with a search box. */
export function UsersPage() {
  const [params, setParams] = useSearchParams();
  const search = params.get('search') ?? '';
  const [text, setText] = useState(search);
  const users = useAdminUsers(search);
  const [flash, setFlash] = useFlashMessage();

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
      {users.data?.length === 0 ? <EmptyState title={search ? `No user matches “${search}”.` : 'No users yet.'} /> : null}
      {users.data && users.data.length > 0 ? (
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
              {users.data.map((user, index) => (
                <tr key={user._id}>
                  <td>{index + 1}</td>
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
    </div>
  );
}
