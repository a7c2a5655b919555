import { useState, type FormEvent } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import { Alert } from '../../../components/Alert';
import { Button } from '../../../components/Button';
import { TextField } from '../../../components/Field';
import { PageTitle } from '../../../components/PageTitle';
import { fieldErrors } from '../../../components/fieldErrors';
import { useTimedMessage } from '../../../components/useTimedMessage';
import { errorMessage } from '../../../lib/api/apiError';
import type { User } from '../../../lib/api/types';
import { useSession } from '../../../lib/session/SessionContext';
import { SignInSecondStep } from '../../secondFactor/SignInSecondStep';
import { AuthCard } from '../components/AuthCard';
import { loadAuthSchemas } from '../loadAuthSchemas';
import { fromState, postSignInPath } from '../postSignInPath';

/** How long the sign-in and sign-up error banner stays (spec, section 8). */
export const AUTH_BANNER_MS = 3000;

type Errors = Partial<Record<'email' | 'password', string>>;

export function SignInPage() {
  const { beginSignIn } = useSession();
  const navigate = useNavigate();
  const location = useLocation();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<Errors>({});
  const [submitting, setSubmitting] = useState(false);
  const [banner, showBanner] = useTimedMessage(AUTH_BANNER_MS);
  const [secondStep, setSecondStep] = useState<{ mode: 'totp' | 'enrol'; challenge: string } | null>(null);
  const signedIn = (user: User) => void navigate(postSignInPath(user, fromState(location.state)), { replace: true });

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const { signinInput } = await loadAuthSchemas();
    const parsed = signinInput.safeParse({ email, password });
    const found = parsed.success ? {} : fieldErrors<keyof Errors>(parsed.error.issues);
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    setSubmitting(true);
    try {
      const result = await beginSignIn(email.trim(), password);
      if (result.kind === 'signedIn') signedIn(result.user);
      else {
        setSecondStep({ mode: result.mode, challenge: result.challenge });
        setPassword('');
        setSubmitting(false);
      }
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
        {secondStep ? (
          <SignInSecondStep mode={secondStep.mode} challenge={secondStep.challenge} onSignedIn={signedIn} onRestart={() => setSecondStep(null)} />
        ) : (
          <>
        {banner ? <Alert kind="error">{banner}</Alert> : null}
        {/* The schema loads when the form is first used, so it is there by the time it is sent. */}
        <form onSubmit={onSubmit} onFocus={() => void loadAuthSchemas()} noValidate aria-labelledby="auth-title">
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
          </>
        )}
      </AuthCard>
    </>
  );
}
