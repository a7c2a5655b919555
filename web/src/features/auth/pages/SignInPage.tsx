import { useState, type FormEvent } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import { signinInput } from '@bank/domain';
import { Alert } from '../../../components/Alert';
import { Button } from '../../../components/Button';
import { TextField } from '../../../components/Field';
import { PageTitle } from '../../../components/PageTitle';
import { fieldErrors } from '../../../components/fieldErrors';
import { useTimedMessage } from '../../../components/useTimedMessage';
import { errorMessage } from '../../../lib/api/apiError';
import { useSession } from '../../../lib/session/SessionContext';
import { AuthCard } from '../components/AuthCard';
import { fromState, postSignInPath } from '../postSignInPath';

/** How long the sign-in and sign-up error banner stays (spec, section 8). */
export const AUTH_BANNER_MS = 3000;

type Errors = Partial<Record<'email' | 'password', string>>;

export function SignInPage() {
  const { signIn } = useSession();
  const navigate = useNavigate();
  const location = useLocation();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<Errors>({});
  const [submitting, setSubmitting] = useState(false);
  const [banner, showBanner] = useTimedMessage(AUTH_BANNER_MS);

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const parsed = signinInput.safeParse({ email, password });
    const found = parsed.success ? {} : fieldErrors<keyof Errors>(parsed.error.issues);
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    setSubmitting(true);
    try {
      const user = await signIn(email.trim(), password);
      void navigate(postSignInPath(user, fromState(location.state)), { replace: true });
    } catch (error) {
      showBanner(errorMessage(error));
      setSubmitting(false);
    }
  };

  return (
    <>
      <PageTitle>Login</PageTitle>
      <AuthCard
        title="Login to Your Account"
        intro={<p>Welcome back. Sign in to see your balances, move money and manage your cards.</p>}
        footer={
          <p>
            New to us? <Link to="/signup">Create an account</Link>
          </p>
        }
      >
        {banner ? <Alert kind="error">{banner}</Alert> : null}
        <form onSubmit={onSubmit} noValidate aria-labelledby="auth-title">
          <TextField label="Email" type="email" name="email" autoComplete="email" required value={email} error={errors.email} onChange={(event) => setEmail(event.target.value)} />
          <TextField
            label="Password"
            type="password"
            name="password"
            autoComplete="current-password"
            required
            value={password}
            error={errors.password}
            onChange={(event) => setPassword(event.target.value)}
          />
          <p className="auth-forgot">
            <Link to="/forgot-password">Forgot password?</Link>
          </p>
          <Button type="submit" loading={submitting} className="btn-block btn-large">
            Login
          </Button>
        </form>
      </AuthCard>
    </>
  );
}
