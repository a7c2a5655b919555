import { useState, type FormEvent } from 'react';
import { Alert } from '../../../components/Alert';
import { Button } from '../../../components/Button';
import { SelectField, TextField } from '../../../components/Field';
import { errorMessage } from '../../../lib/api/apiError';
import { useUpdateUser, type UserChange } from '../../../lib/api/queries/useUpdateUser';
import type { User, VerificationStatus } from '../../../lib/api/types';
import { AdminPageTitle } from '../components/AdminPageTitle';
import { fullName, verificationLabels } from '../components/adminLabels';
import { AdminUserPage } from '../components/AdminUserPage';

/** /admin/users/edit/:id: personal info, verification status, transfer block, sign-in block and payment pin. */
export function EditUserPage() {
  return <AdminUserPage>{(user) => <EditUserForm user={user} />}</AdminUserPage>;
}

interface Values {
  firstName: string;
  lastName: string;
  email: string;
  phone: string;
  address: string;
  state: string;
  verificationStatus: VerificationStatus;
  isBlocked: boolean;
  isDisabled: boolean;
  paymentPin: string;
}

function valuesOf(user: User): Values {
  return {
    firstName: user.firstName,
    lastName: user.lastName,
    email: user.email,
    phone: user.phone,
    address: user.location.address,
    state: user.location.state,
    verificationStatus: user.verificationStatus,
    isBlocked: user.isBlocked,
    isDisabled: user.isDisabled,
    paymentPin: '',
  };
}

/** The form's first problem, or null. */
export function checkUser(values: Values): string | null {
  const required = [values.firstName, values.lastName, values.email, values.phone, values.address, values.state];
  if (required.some((value) => value.trim() === '')) return 'All fields are required';
  if (values.paymentPin !== '' && !/^\d{6}$/.test(values.paymentPin)) return 'Payment pin must be 6 digits';
  return null;
}

function toChange(values: Values): UserChange {
  return {
    firstName: values.firstName.trim(),
    lastName: values.lastName.trim(),
    email: values.email.trim(),
    phone: values.phone.trim(),
    location: { address: values.address.trim(), state: values.state.trim() },
    verificationStatus: values.verificationStatus,
    isBlocked: values.isBlocked,
    isDisabled: values.isDisabled,
    ...(values.paymentPin ? { paymentPin: values.paymentPin } : {}),
  };
}

function EditUserForm({ user }: { user: User }) {
  const update = useUpdateUser(user._id);
  const [values, setValues] = useState<Values>(() => valuesOf(user));
  const [result, setResult] = useState<{ kind: 'success' | 'error'; message: string } | null>(null);
  const set = (field: keyof Values) => (event: { target: { value: string } }) => setValues((current) => ({ ...current, [field]: event.target.value }));
  const toggle = (field: 'isBlocked' | 'isDisabled') => (event: { target: { checked: boolean } }) =>
    setValues((current) => ({ ...current, [field]: event.target.checked }));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const problem = checkUser(values);
    if (problem) {
      setResult({ kind: 'error', message: problem });
      return;
    }
    setResult(null);
    update.mutate(toChange(values), {
      onSuccess: (answer) => {
        setResult({ kind: 'success', message: answer?.message ?? 'User updated successfully' });
        setValues((current) => ({ ...current, paymentPin: '' }));
      },
      onError: (error) => setResult({ kind: 'error', message: errorMessage(error) }),
    });
  };

  return (
    <>
      <AdminPageTitle back={{ to: `/admin/users/${user._id}`, label: fullName(user) }}>Edit user</AdminPageTitle>
      <form className="admin-card admin-form" onSubmit={submit} noValidate>
        {result ? <Alert kind={result.kind}>{result.message}</Alert> : null}
        <fieldset className="admin-fieldset">
          <legend>Personal details</legend>
          <div className="admin-form-grid">
            <TextField label="First name" required value={values.firstName} onChange={set('firstName')} />
            <TextField label="Last name" required value={values.lastName} onChange={set('lastName')} />
            <TextField label="E-mail" type="email" required value={values.email} onChange={set('email')} />
            <TextField label="Phone" type="tel" required value={values.phone} onChange={set('phone')} />
            <TextField label="Address" required value={values.address} onChange={set('address')} />
            <TextField label="State" required value={values.state} onChange={set('state')} />
          </div>
        </fieldset>
        <fieldset className="admin-fieldset">
          <legend>Status and security</legend>
          <div className="admin-form-grid">
            <SelectField label="Verification status" value={values.verificationStatus} onChange={set('verificationStatus')}>
              {(Object.keys(verificationLabels) as VerificationStatus[]).map((status) => (
                <option key={status} value={status}>
                  {verificationLabels[status]}
                </option>
              ))}
            </SelectField>
            <TextField
              label="New payment pin"
              type="password"
              inputMode="numeric"
              autoComplete="new-password"
              maxLength={6}
              value={values.paymentPin}
              onChange={(event) => setValues((current) => ({ ...current, paymentPin: event.target.value.replace(/\D/g, '').slice(0, 6) }))}
              hint={`${user.hasPaymentPin ? 'A pin is set.' : 'No pin set yet.'} Leave empty to keep it; 6 digits to set a new one.`}
            />
          </div>
          <label className="admin-check">
            <input type="checkbox" checked={values.isBlocked} onChange={toggle('isBlocked')} />
            <span>
              Block transfers <span className="admin-muted">(the customer cannot complete transfers)</span>
            </span>
          </label>
          <label className="admin-check">
            <input type="checkbox" checked={values.isDisabled} onChange={toggle('isDisabled')} />
            <span>
              Disable account <span className="admin-muted">(the customer cannot sign in)</span>
            </span>
          </label>
        </fieldset>
        <Button type="submit" loading={update.isPending}>
          Save user
        </Button>
      </form>
    </>
  );
}
