import { useState, type FormEvent } from 'react';
import { adminAccountInput, centsToDollars, type AdminAccountInput } from '@bank/domain';
import { Alert } from '../../../components/Alert';
import { Button } from '../../../components/Button';
import { TextField } from '../../../components/Field';
import { formatMoney } from '../../../components/money';
import { errorMessage } from '../../../lib/api/apiError';
import { useUpdateUserAccount } from '../../../lib/api/queries/useUpdateUserAccount';
import type { User } from '../../../lib/api/types';
import { AdminPageTitle } from '../components/AdminPageTitle';
import { fullName } from '../components/adminLabels';
import { AdminUserPage } from '../components/AdminUserPage';
import { ReasonField } from '../components/ReasonField';

/** /admin/users/account/:id: the account number and both balances. */
export function EditBalancesPage() {
  return <AdminUserPage>{(user) => <EditBalancesForm user={user} />}</AdminUserPage>;
}

interface Values {
  number: string;
  savings: string;
  checking: string;
  reason: string;
}

/** Thousands separators typed in a money field are dropped before the domain's schema reads it. */
const typed = (text: string) => text.trim().replace(/,/g, '');

/** The form read by the API's own schema (PUT /user/admin/account/:id): the request, or the first problem's message. */
export function readBalances(values: Values): { ok: true; input: AdminAccountInput } | { ok: false; message: string } {
  const parsed = adminAccountInput.safeParse({ number: values.number, savings: typed(values.savings), checking: typed(values.checking), reason: values.reason });
  return parsed.success ? { ok: true, input: parsed.data } : { ok: false, message: parsed.error.issues[0]?.message ?? 'All fields are required' };
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
    const read = readBalances(values);
    if (!read.ok) {
      setResult({ kind: 'error', message: read.message });
      return;
    }
    const { accountNumber, savingsCents, checkingCents, reason } = read.input;
    setResult(null);
    update.mutate(
      {
        number: accountNumber,
        savings: centsToDollars(savingsCents),
        checking: centsToDollars(checkingCents),
        ...(reason ? { reason } : {}),
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
        <ReasonField value={values.reason} onChange={set('reason')} otherSide="staff-adjustments" />
        <Button type="submit" loading={update.isPending}>
          Save balances
        </Button>
      </form>
    </>
  );
}
