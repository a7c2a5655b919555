import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { Alert } from '../../../components/Alert';
import { Button } from '../../../components/Button';
import { TextField } from '../../../components/Field';
import { LoadingBlock } from '../../../components/Spinner';
import { errorMessage } from '../../../lib/api/apiError';
import { useUpdateProfile, type ProfileChange } from '../../../lib/api/queries/useUpdateProfile';
import type { User } from '../../../lib/api/types';
import { useSession } from '../../../lib/session/SessionContext';
import { PageTitle } from '../components/PageTitle';

function initialValues(user: User): ProfileChange {
  return {
    firstName: user.firstName,
    lastName: user.lastName,
    email: user.email,
    phoneNumber: user.phone,
    address: user.location.address,
    state: user.location.state,
  };
}

/** /account/update-account: e-mail, phone and address (the names are read-only). Success goes to /account/info. */
export function UpdateAccountPage() {
  const { user } = useSession();
  if (!user) return <LoadingBlock />;
  return <UpdateAccountForm user={user} />;
}

function UpdateAccountForm({ user }: { user: User }) {
  const navigate = useNavigate();
  const update = useUpdateProfile();
  const [values, setValues] = useState<ProfileChange>(() => initialValues(user));
  const [problem, setProblem] = useState<string | null>(null);
  const set = (field: keyof ProfileChange) => (event: { target: { value: string } }) => setValues((current) => ({ ...current, [field]: event.target.value }));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setProblem(null);
    if ([values.email, values.phoneNumber, values.address, values.state].some((value) => value.trim() === '')) {
      setProblem('All fields are required');
      return;
    }
    update.mutate(values, {
      onSuccess: (answer) => void navigate('/account/info', { state: { message: answer.message ?? 'Profile updated successfully' } }),
      onError: (error) => setProblem(errorMessage(error)),
    });
  };

  return (
    <div className="portal-page">
      <PageTitle lead="Keep your contact details up to date. To change your name, contact the bank.">Edit profile</PageTitle>
      <form className="portal-card portal-form" onSubmit={submit} noValidate>
        {problem ? <Alert kind="error">{problem}</Alert> : null}
        <div className="form-grid">
          <TextField label="First name" value={values.firstName} readOnly hint="Read-only" />
          <TextField label="Last name" value={values.lastName} readOnly hint="Read-only" />
          <TextField label="E-mail" type="email" autoComplete="email" required value={values.email} onChange={set('email')} />
          <TextField label="Phone number" type="tel" autoComplete="tel" required value={values.phoneNumber} onChange={set('phoneNumber')} />
          <TextField label="Address" autoComplete="street-address" required value={values.address} onChange={set('address')} />
          <TextField label="State" autoComplete="address-level1" required value={values.state} onChange={set('state')} />
        </div>
        <div className="form-actions">
          <Button type="submit" loading={update.isPending}>
            Save changes
          </Button>
          <Button variant="secondary" onClick={() => void navigate('/account/info')}>
            Cancel
          </Button>
        </div>
      </form>
    </div>
  );
}
