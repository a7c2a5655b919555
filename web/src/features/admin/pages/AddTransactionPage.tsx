import { useState, type FormEvent } from 'react';
import { Link, useSearchParams } from 'react-router';
import { adminTransactionInput, centsToDollars, domainErrorMessages } from '@bank/domain';
import { Alert } from '../../../components/Alert';
import { Button } from '../../../components/Button';
import { SelectField, TextField } from '../../../components/Field';
import { errorMessage } from '../../../lib/api/apiError';
import { useAddTransaction } from '../../../lib/api/queries/useAddTransaction';
import { useAdminUser } from '../../../lib/api/queries/useAdminUser';
import type { AccountKind } from '../../../lib/api/types';
import { AdminPageTitle } from '../components/AdminPageTitle';
import { CustomerPicker } from '../components/CustomerPicker';
import { ReasonField } from '../components/ReasonField';

interface Values {
  userId: string;
  amount: string;
  transactionType: '' | 'credit' | 'debit';
  date: string;
  description: string;
  account: AccountKind;
  reason: string;
}

function today(): string {
  const now = new Date();
  return `${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, '0')}-${String(now.getDate()).padStart(2, '0')}`;
}

/**
 * The form read by the API's own schema (POST /transaction/admin/:userId): the amount in cents, or the first
 * problem's message. Every field is required here (the API's decider says the same: 'All fields are required').
 */
export function readTransaction(values: Values): { ok: true; amountCents: number } | { ok: false; message: string } {
  if (!values.amount.trim() || !values.transactionType || !values.date || !values.description.trim() || !values.account) {
    return { ok: false, message: domainErrorMessages.all_fields_required };
  }
  if (!values.userId) return { ok: false, message: 'Please select a user' };
  const parsed = adminTransactionInput.safeParse({ ...values, amount: values.amount.trim().replace(/,/g, '') });
  if (!parsed.success) return { ok: false, message: parsed.error.issues[0]?.message ?? domainErrorMessages.all_fields_required };
  return parsed.data.amountCents === undefined ? { ok: false, message: domainErrorMessages.all_fields_required } : { ok: true, amountCents: parsed.data.amountCents };
}

/** /admin/transactions/add-transactions: post a credit or debit to a customer's savings or checking. */
export function AddTransactionPage() {
  const [params] = useSearchParams();
  // The picker lists the first page of a search (any number of customers): a customer named in the address (from
  // their transactions page) is fetched on their own, so they are always an option.
  const named = params.get('userId') ?? '';
  const namedUser = useAdminUser(named, { enabled: named !== '' });
  const add = useAddTransaction();
  const [values, setValues] = useState<Values>({
    userId: params.get('userId') ?? '',
    amount: '',
    transactionType: '',
    date: today(),
    description: '',
    account: 'savings',
    reason: '',
  });
  const [result, setResult] = useState<{ kind: 'success' | 'error'; message: string; detail?: string; userId?: string } | null>(null);
  const set = (field: keyof Values) => (event: { target: { value: string } }) => setValues((current) => ({ ...current, [field]: event.target.value }));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const read = readTransaction(values);
    if (!read.ok || !values.transactionType) {
      setResult({ kind: 'error', message: read.ok ? domainErrorMessages.all_fields_required : read.message });
      return;
    }
    setResult(null);
    add.mutate(
      {
        userId: values.userId,
        transaction: {
          amount: centsToDollars(read.amountCents),
          transactionType: values.transactionType,
          date: values.date,
          description: values.description.trim(),
          account: values.account,
          ...(values.reason.trim() ? { reason: values.reason.trim() } : {}),
        },
      },
      {
        onSuccess: () => {
          setResult({ kind: 'success', message: 'Transaction added successfully', userId: values.userId });
          setValues((current) => ({ ...current, amount: '', description: '', reason: '' }));
        },
        onError: (error) => {
          const reason = errorMessage(error, '');
          setResult({ kind: 'error', message: 'Error adding transaction', detail: reason && reason !== 'Error adding transaction' ? reason : undefined });
        },
      },
    );
  };

  return (
    <div className="admin-page">
      <AdminPageTitle back={{ to: '/admin/dashboard', label: 'Dashboard' }} lead="The amount moves the balance of the chosen account at once.">
        Add Transaction
      </AdminPageTitle>
      <form className="admin-card admin-form" onSubmit={submit} noValidate>
        {result ? (
          <Alert kind={result.kind}>
            <span>{result.message}</span>
            {result.detail ? <span className="admin-alert-detail">{result.detail}</span> : null}
            {result.userId ? (
              <>
                {' '}
                <Link to={`/admin/transactions/${result.userId}`}>View transactions</Link>
              </>
            ) : null}
          </Alert>
        ) : null}
        <CustomerPicker value={values.userId} onChange={(userId) => setValues((current) => ({ ...current, userId }))} known={namedUser.data} />
        <div className="admin-form-grid">
          <TextField label="Amount (USD)" inputMode="decimal" required value={values.amount} onChange={set('amount')} />
          <SelectField label="Type" required value={values.transactionType} onChange={set('transactionType')}>
            <option value="">Choose…</option>
            <option value="credit">Credit (money in)</option>
            <option value="debit">Debit (money out)</option>
          </SelectField>
          <TextField label="Date" type="date" required value={values.date} onChange={set('date')} />
          <SelectField label="Account" required value={values.account} onChange={set('account')}>
            <option value="savings">Savings</option>
            <option value="checking">Checking</option>
          </SelectField>
        </div>
        <TextField label="Description" required value={values.description} onChange={set('description')} />
        <ReasonField value={values.reason} onChange={set('reason')} otherSide="staff-postings" />
        <Button type="submit" loading={add.isPending}>
          Add transaction
        </Button>
      </form>
    </div>
  );
}
