import { useEffect, useId, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { Alert } from '../../components/Alert';
import { Button } from '../../components/Button';
import { EmptyState } from '../../components/EmptyState';
import { QueryPager } from '../../components/Pager';
import { LoadingBlock } from '../../components/Spinner';
import { useCursorTrail } from '../../lib/api/paging';
import { errorMessage } from '../../lib/api/apiError';
import { useAuditUserSearch } from './auditApi';

/** /audit — find a customer by name, e-mail or account number, a page at a time. The search is kept in the URL (?q=). */
export function CustomerSearchPage() {
  const [params, setParams] = useSearchParams();
  const search = params.get('q') ?? '';
  const [text, setText] = useState(search);
  const inputId = useId();
  const trail = useCursorTrail(search);
  const results = useAuditUserSearch(search, trail.cursor);
  const found = results.data?.data;

  useEffect(() => setText(search), [search]);

  return (
    <section className="audit-page">
      <h1>Find a customer</h1>
      <form
        role="search"
        className="audit-search"
        onSubmit={(event) => {
          event.preventDefault();
          const q = text.trim();
          setParams(q ? { q } : {});
        }}
      >
        <div className="field">
          <label htmlFor={inputId}>Name, e-mail or account number</label>
          <input id={inputId} type="search" value={text} onChange={(event) => setText(event.target.value)} autoComplete="off" />
        </div>
        <Button type="submit">Search</Button>
      </form>
      {!search ? (
        <p className="audit-muted">Search for a customer to replay their history.</p>
      ) : results.isPending ? (
        <LoadingBlock label="Searching…" />
      ) : results.isError ? (
        <Alert kind="error">{errorMessage(results.error)}</Alert>
      ) : found === undefined || (found.length === 0 && !trail.hasPrevious) ? (
        <EmptyState title={`No customer matches “${search}”.`} />
      ) : (
        <div className="audit-table-wrap" aria-busy={results.isFetching || undefined}>
          <table className="audit-table audit-results">
            <caption>
              {found.length} {found.length === 1 ? 'customer' : 'customers'}
            </caption>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">E-mail</th>
                <th scope="col">Account</th>
                <th scope="col">
                  <span className="visually-hidden">History</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {found.map((user) => (
                <tr key={user._id}>
                  <td data-label="Name">
                    {user.firstName} {user.lastName}
                  </td>
                  <td data-label="E-mail">{user.email}</td>
                  <td data-label="Account">{user.accountNumber}</td>
                  <td>
                    <Link to={`/audit/users/${user._id}`} aria-label={`History of ${user.firstName} ${user.lastName}`}>
                      History
                    </Link>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {search ? <QueryPager label="Customers" trail={trail} query={results} /> : null}
    </section>
  );
}
