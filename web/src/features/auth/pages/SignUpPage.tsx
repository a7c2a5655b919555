import { useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import { PASSWORD_MIN_LENGTH } from '@bank/domain/limits';
import { Alert } from '../../../components/Alert';
import { Button } from '../../../components/Button';
import { SelectField, TextField } from '../../../components/Field';
import { PageTitle } from '../../../components/PageTitle';
import { fieldErrors } from '../../../components/fieldErrors';
import { useTimedMessage } from '../../../components/useTimedMessage';
import { errorMessage } from '../../../lib/api/apiError';
import { useSession } from '../../../lib/session/SessionContext';
import { signUp } from '../authApi';
import { AuthCard } from '../components/AuthCard';
import { loadAuthSchemas } from '../loadAuthSchemas';
import { usStates } from '../usStates';
import { AUTH_BANNER_MS } from './SignInPage';

export const PASSWORDS_DO_NOT_MATCH = 'Passwords do not match';

interface SignUpValues {
  firstName: string;
  lastName: string;
  email: string;
  phone: string;
  password: string;
  repeatPassword: string;
  address: string;
  state: string;
}

type Errors = Partial<Record<keyof SignUpValues, string>>;

const empty: SignUpValues = { firstName: '', lastName: '', email: '', phone: '', password: '', repeatPassword: '', address: '', state: '' };

/** The domain's sign-up form rules (the server applies the same ones), with the mismatch always reported. */
async function validate(values: SignUpValues): Promise<Errors> {
  const { signupForm } = await loadAuthSchemas();
  const parsed = signupForm.safeParse(values);
  const errors = parsed.success ? {} : fieldErrors<keyof SignUpValues>(parsed.error.issues);
  if (values.password && values.repeatPassword && values.password !== values.repeatPassword && !errors.repeatPassword) {
    errors.repeatPassword = PASSWORDS_DO_NOT_MATCH;
  }
  return errors;
}

export function SignUpPage() {
  const { signIn } = useSession();
  const navigate = useNavigate();
  const [values, setValues] = useState<SignUpValues>(empty);
  const [errors, setErrors] = useState<Errors>({});
  const [submitting, setSubmitting] = useState(false);
  const [banner, showBanner] = useTimedMessage(AUTH_BANNER_MS);

  const field = (name: keyof SignUpValues) => ({
    name,
    value: values[name],
    error: errors[name],
    required: true,
    onChange: (event: { target: { value: string } }) => setValues((current) => ({ ...current, [name]: event.target.value })),
  });

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const found = await validate(values);
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    setSubmitting(true);
    const { repeatPassword: _repeat, ...request } = values;
    try {
      await signUp({ ...request, email: request.email.trim() });
    } catch (error) {
      showBanner(errorMessage(error));
      setSubmitting(false);
      return;
    }
    try {
      await signIn(request.email.trim(), request.password);
      void navigate('/account-verification', { replace: true });
    } catch {
      void navigate('/signin', { replace: true });
    }
  };

  return (
    <>
      <PageTitle>Open an Account</PageTitle>
      <AuthCard
        wide
        title="Create Your Account"
        intro={<p>Open your savings and checking accounts in minutes. Next, you will verify your identity with a photo ID.</p>}
        footer={
          <p>
            Already have an account? <Link to="/signin">Sign in</Link>
          </p>
        }
      >
        {banner ? <Alert kind="error">{banner}</Alert> : null}
        <form onSubmit={onSubmit} onFocus={() => void loadAuthSchemas()} noValidate aria-labelledby="auth-title">
          <div className="form-grid">
            <TextField label="First name" autoComplete="given-name" {...field('firstName')} />
            <TextField label="Last name" autoComplete="family-name" {...field('lastName')} />
            <TextField label="Email" type="email" autoComplete="email" {...field('email')} />
            <TextField label="Phone" type="tel" autoComplete="tel" {...field('phone')} />
            <TextField label="Password" type="password" autoComplete="new-password" minLength={PASSWORD_MIN_LENGTH} hint={`At least ${PASSWORD_MIN_LENGTH} characters`} {...field('password')} />
            <TextField label="Repeat password" type="password" autoComplete="new-password" minLength={PASSWORD_MIN_LENGTH} {...field('repeatPassword')} />
          </div>
          <TextField label="House address" autoComplete="street-address" {...field('address')} />
          <SelectField label="State" autoComplete="address-level1" {...field('state')}>
            <option value="">Choose your state</option>
            {usStates.map((state) => (
              <option key={state} value={state}>
                {state}
              </option>
            ))}
          </SelectField>
          <Button type="submit" loading={submitting} className="btn-block btn-large">
            Create Account
          </Button>
        </form>
      </AuthCard>
    </>
  );
}
