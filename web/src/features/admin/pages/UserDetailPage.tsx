import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { Alert } from '../../../components/Alert';
import { Button } from '../../../components/Button';
import { EmptyState } from '../../../components/EmptyState';
import { formatDateTime, formatMoney } from '../../../components/money';
import { LoadingBlock } from '../../../components/Spinner';
import { errorMessage } from '../../../lib/api/apiError';
import { useAdminUser } from '../../../lib/api/queries/useAdminUser';
import { SecondFactorPanel } from '../components/SecondFactorPanel';
import { StaffStatementPanel } from '../../statements/StaffStatementPanel';
import { StaffStandingOrdersPanel } from '../../standingOrders/StaffStandingOrdersPanel';
import { useDeleteUser } from '../../../lib/api/queries/useDeleteUser';
import type { User } from '../../../lib/api/types';
import { AdminBadge } from '../components/AdminBadge';
import { AdminPageTitle } from '../components/AdminPageTitle';
import { fullName, verificationLabels, verificationTone } from '../components/adminLabels';
import { ProtectedImage } from '../components/ProtectedImage';
import { DetailList, personalDetails } from '../../../components/DetailList';
import { CustomerJournalLinks } from '../../ledger/CustomerJournalLinks';

export const DELETE_FIRST_QUESTION = 'Are you sure you want to delete this user?';
export const DELETE_SECOND_QUESTION = 'Are you really sure? This cannot be undone.';

const documentTypeLabels: Record<string, string> = {
  passport: 'Passport',
  'national-id': 'National ID',
  'driver-license': "Driver's license",
  other: 'Other',
};

/** /admin/users/:id: one customer — details, verification documents, card requests; edit links; delete. */
export function UserDetailPage() {
  const { id = '' } = useParams();
  const [deleted, setDeleted] = useState(false);
  const user = useAdminUser(id, { enabled: !deleted });
  return (
    <div className="admin-page">
      {user.isPending ? <LoadingBlock label="Loading user…" /> : null}
      {user.isError ? (
        <>
          <AdminPageTitle back={{ to: '/admin/users', label: 'Users' }}>User</AdminPageTitle>
          <Alert kind="error">{errorMessage(user.error)}</Alert>
        </>
      ) : null}
      {user.data ? <UserDetail user={user.data} onDeleted={() => setDeleted(true)} /> : null}
    </div>
  );
}

function UserDetail({ user, onDeleted }: { user: User; onDeleted: () => void }) {
  const navigate = useNavigate();
  const remove = useDeleteUser();
  const [problem, setProblem] = useState<string | null>(null);
  const name = fullName(user);

  // Spec §5: two native confirmations; cancelling either leaves the user untouched.
  const deleteUser = () => {
    if (remove.isPending) return;
    if (!window.confirm(DELETE_FIRST_QUESTION)) return;
    if (!window.confirm(DELETE_SECOND_QUESTION)) return;
    setProblem(null);
    remove.mutate(user._id, {
      onSuccess: (answer) => {
        onDeleted();
        void navigate('/admin/users', { state: { message: answer?.message ?? `${name} was deleted` } });
      },
      onError: (error) => setProblem(errorMessage(error)),
    });
  };

  return (
    <>
      <AdminPageTitle
        back={{ to: '/admin/users', label: 'Users' }}
        lead={user.email}
        actions={
          <>
            <Link to={`/admin/users/edit/${user._id}`} className="btn btn-secondary">
              Edit info
            </Link>
            <Link to={`/admin/users/account/${user._id}`} className="btn btn-secondary">
              Edit balances
            </Link>
            <Link to={`/admin/transactions/${user._id}`} className="btn btn-secondary">
              Transactions
            </Link>
            <Button variant="danger" onClick={deleteUser} loading={remove.isPending}>
              Delete user
            </Button>
          </>
        }
      >
        {name}
      </AdminPageTitle>
      {problem ? (
        <Alert kind="error" onDismiss={() => setProblem(null)}>
          {problem}
        </Alert>
      ) : null}

      <div className="admin-grid">
        <section className="admin-card" aria-labelledby="account-heading">
          <h2 id="account-heading">Account</h2>
          <dl className="admin-details">
            <div>
              <dt>Account number</dt>
              <dd className="admin-mono">{user.account.number}</dd>
            </div>
            <div>
              <dt>Savings</dt>
              <dd>{formatMoney(user.account.savings)}</dd>
            </div>
            <div>
              <dt>Checking</dt>
              <dd>{formatMoney(user.account.checking)}</dd>
            </div>
            <div>
              <dt>Transfers</dt>
              <dd>{user.isBlocked ? <AdminBadge tone="bad">Blocked</AdminBadge> : <AdminBadge tone="good">Allowed</AdminBadge>}</dd>
            </div>
            <div>
              <dt>Sign-in</dt>
              <dd>{user.isDisabled ? <AdminBadge tone="bad">Disabled</AdminBadge> : <AdminBadge tone="good">Enabled</AdminBadge>}</dd>
            </div>
            <div>
              <dt>Payment pin</dt>
              <dd>{user.hasPaymentPin ? 'Set' : 'Not set'}</dd>
            </div>
          </dl>
          <Link to={`/admin/transactions/add-transactions?userId=${user._id}`}>Add a transaction for {user.firstName}</Link>
          {user.role === 'customer' ? <CustomerJournalLinks customerId={user._id} /> : null}
        </section>

        <section className="admin-card" aria-labelledby="personal-heading">
          <h2 id="personal-heading">Personal details</h2>
          <DetailList className="admin-details" details={personalDetails(user, { emailClassName: 'admin-wrap' })} />
        </section>
      </div>

      <section className="admin-card" aria-labelledby="verification-heading">
        <h2 id="verification-heading">
          Verification <AdminBadge tone={verificationTone[user.verificationStatus]}>{verificationLabels[user.verificationStatus]}</AdminBadge>
        </h2>
        {user.verification ? (
          <>
            <p>Document type: {documentTypeLabels[user.verification.documentType] ?? user.verification.documentType}</p>
            <div className="admin-documents">
              <figure>
                <ProtectedImage url={user.verification.documentFront.url} alt="Document front" />
                <figcaption>Front</figcaption>
              </figure>
              <figure>
                <ProtectedImage url={user.verification.documentBack.url} alt="Document back" />
                <figcaption>Back</figcaption>
              </figure>
            </div>
          </>
        ) : (
          <EmptyState title="No documents submitted yet." />
        )}
      </section>

      <SecondFactorPanel userId={user._id} name={name} />

      {user.role === 'customer' ? <StaffStatementPanel userId={user._id} className="admin-card" /> : null}
      {user.role === 'customer' ? <StaffStandingOrdersPanel userId={user._id} className="admin-card" /> : null}

      <section className="admin-card" aria-labelledby="cards-heading">
        <h2 id="cards-heading">Card requests</h2>
        {user.cardRequests && user.cardRequests.length > 0 ? (
          <ul className="admin-plain-list">
            {user.cardRequests.map((request) => (
              <li key={request._id}>
                {request.cardType ? `${request.cardType} card` : 'Card'} requested {formatDateTime(request.requestedAt)}
              </li>
            ))}
          </ul>
        ) : (
          <EmptyState title="No card requests." />
        )}
      </section>
    </>
  );
}
