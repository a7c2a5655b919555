import { useState, type FormEvent } from 'react';
import { PASSWORD_MIN_LENGTH } from '@bank/domain/limits';
import { Alert } from '../../../components/Alert';
import { Button } from '../../../components/Button';
import { TextField } from '../../../components/Field';
import { errorMessage } from '../../../lib/api/apiError';
import { useChangePassword } from '../../../lib/api/queries/useChangePassword';
import { PageTitle } from '../components/PageTitle';

const empty = { oldPassword: '', newPassword: '', confirmPassword: '' };
export const PASSWORDS_DO_NOT_MATCH = 'Passwords do not match';

/** /account/update-password: old, new and confirm; the server's message after success or failure; fields cleared. */
export function UpdatePasswordPage() {
  const change = useChangePassword();
  const [values, setValues] = useState(empty);
  const [result, setResult] = useState<{ kind: 'success' | 'error'; message: string } | null>(null);
  const set = (field: keyof typeof empty) => (event: { target: { value: string } }) => setValues((current) => ({ ...current, [field]: event.target.value }));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setResult(null);
    // Spec §5: new and confirm must match, else a browser alert (kept in the form as well) and nothing is sent.
    if (values.newPassword !== values.confirmPassword) {
      setResult({ kind: 'error', message: PASSWORDS_DO_NOT_MATCH });
      window.alert(PASSWORDS_DO_NOT_MATCH);
      return;
    }
    if (!values.oldPassword || !values.newPassword || !values.confirmPassword) {
      setResult({ kind: 'error', message: 'All fields are required' });
      return;
    }
    if (values.newPassword.length < PASSWORD_MIN_LENGTH) {
      setResult({ kind: 'error', message: `Password must be at least ${PASSWORD_MIN_LENGTH} characters` });
      return;
    }
    change.mutate(
      { oldPassword: values.oldPassword, newPassword: values.newPassword },
      {
        onSuccess: (answer) => setResult({ kind: 'success', message: answer.message ?? 'Password updated successfully' }),
        onError: (error) => setResult({ kind: 'error', message: errorMessage(error) }),
        onSettled: () => setValues(empty),
      },
    );
  };

  return (
    <div className="portal-page">
      <PageTitle lead={`Use at least ${PASSWORD_MIN_LENGTH} characters.`}>Update password</PageTitle>
      <form className="portal-card portal-form portal-form-narrow" onSubmit={submit} noValidate>
        {result ? <Alert kind={result.kind}>{result.message}</Alert> : null}
        <TextField label="Current password" type="password" autoComplete="current-password" required value={values.oldPassword} onChange={set('oldPassword')} />
        <TextField
          label="New password"
          type="password"
          autoComplete="new-password"
          required
          minLength={PASSWORD_MIN_LENGTH}
          value={values.newPassword}
          onChange={set('newPassword')}
        />
        <TextField label="Confirm password" type="password" autoComplete="new-password" required value={values.confirmPassword} onChange={set('confirmPassword')} />
        <Button type="submit" loading={change.isPending}>
          Update password
        </Button>
      </form>
    </div>
  );
}
