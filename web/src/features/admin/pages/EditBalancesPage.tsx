import { useState, type FormEvent } from 'react';
import { useParams } from 'react-router';
import { Alert } from '../../../components/Alert';
import { Button } from '../../../components/Button';
import { TextField } from '../../../components/Field';
import { formatMoney } from '../../../components/money';
import { LoadingBlock } from '../../../components/Spinner';
import { errorMessage } from '../../../lib/api/apiError';
import { parseAmount, centsToDollars } from '../../../lib/api/queries/parseAmount';
import { useAdminUser } from '../../../lib/api/queries/useAdminUser';
import { useUpdateUserAccount } from '../../../lib/api/queries/useUpdateUserAccount';
import type { User } from '../../../lib/api/types';
import { AdminPageTitle } from '../components/AdminPageTitle';
import { fullName } from '../components/adminLabels';

/** /admin/users/account/:id: the account number and both balances. */
export function EditBalancesPage() {
  const { id = '' } = useParams();
  const user = useAdminUser(id);
  return (
    <div className="admin-page">
      {user.isPending ? <LoadingBlock label="Loading user…" /> : null}
      {user.isError ? <Alert kind="error">{errorMessage(user.error)}</Alert> : null}
      {user.data ? <EditBalancesForm user={user.data} /> : null}
    </div>
  );
}

interface Values {
  number: string;
  savings: string;
  checking: string;
  reason: string;
}

/** The form's first problem, or null. */
export function checkBalances(values: Values): string | null {
  if (!values.number.trim() || !values.savings.trim() || !values.checking.trim()) return 'All fields are required';
  if (!/^\d{10}$/.test(values.number.trim())) return 'Account number must be 10 digits';
  for (const [label, text] of [['Savings', values.savings], ['Checking', values.checking]] as const) {
    const amount = parseAmount(text);
    if (!amount.ok) return `${label}: ${amount.message}`;
  }
  return null;
}

function EditBalancesForm({ user }: { user: User }) {
  const update = useUpdateUserAccount(user._id);
  const [values, setValues] = useState<Values>({
    number: user.account.number,
    savings: String(user.account.savings),
    checking: String(user.account.checking),
    reason: '',
  });
  const [result, setResult] = useState<{ kind: 'success' | 'error'; message: string } | null>(null);
  const set = (field: keyof Values) => (event: { target: { value: string } }) => setValues((current) => ({ ...current, [field]: event.target.value }));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const problem = checkBalances(values);
    if (problem) {
      setResult({ kind: 'error', message: problem });
      return;
    }
    const savings = parseAmount(values.savings);
    const checking = parseAmount(values.checking);
    if (!savings.ok || !checking.ok) return;
    setResult(null);
    update.mutate(
      {
        number: values.number.trim(),
        savings: centsToDollars(savings.cents),
        checking: centsToDollars(checking.cents),
        ...(values.reason.trim() ? { reason: values.reason.trim() } : {}),
      },
      {
        onSuccess: (answer) => setResult({ kind: 'success', message: answer?.message ?? 'Account updated successfully' }),
        onError: (error) => setResult({ kind: 'error', message: errorMessage(error) }),
      },
    );
  };

  return (
    <>
      <AdminPageTitle
        back={{ to: `/admin/users/${user._id}`, label: fullName(user) }}
        lead={`Now: savings ${formatMoney(user.account.savings)}, checking ${formatMoney(user.account.checking)}. Each change is posted as an audited adjustment.`}
      >
        Edit balances
      </AdminPageTitle>
      <form className="admin-card admin-form" onSubmit={submit} noValidate>
        {result ? <Alert kind={result.kind}>{result.message}</Alert> : null}
        <TextField label="Account number" inputMode="numeric" maxLength={10} required value={values.number} onChange={set('number')} hint="10 digits" />
        <div className="admin-form-grid">
          <TextField label="Savings balance (USD)" inputMode="decimal" required value={values.savings} onChange={set('savings')} />
          <TextField label="Checking balance (USD)" inputMode="decimal" required value={values.checking} onChange={set('checking')} />
        </div>
        <TextField label="Reason (optional)" value={values.reason} onChange={set('reason')} hint="Kept in the audit log" />
        <Button type="submit" loading={update.isPending}>
          Save balances
        </Button>
      </form>
    </>
  );
}
