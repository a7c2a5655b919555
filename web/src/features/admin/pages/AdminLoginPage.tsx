import { useState, type FormEvent } from 'react';
import { Link, Navigate, useLocation, useNavigate } from 'react-router';
import { Alert } from '../../../components/Alert';
import { Button } from '../../../components/Button';
import { TextField } from '../../../components/Field';
import { Logo } from '../../../components/Logo';
import { PageTitle } from '../../../components/PageTitle';
import { bankDetails } from '../../../components/bankDetails';
import { useTimedMessage } from '../../../components/useTimedMessage';
import { errorMessage } from '../../../lib/api/apiError';
import { isAdminUser, returnPath } from '../../../lib/session/guards';
import type { User } from '../../../lib/api/types';
import { useSession } from '../../../lib/session/SessionContext';
import { SignInSecondStep } from '../../secondFactor/SignInSecondStep';
import '../admin.css';

/**
 * /admin/login: staff sign in here. An admin goes to /admin/dashboard (or back to the admin page the guard
 * stopped them at); anyone else to /account/home. Errors show for 3 seconds.
 */
export function AdminLoginPage() {
  const { beginSignIn, isAuthenticated, user } = useSession();
  const navigate = useNavigate();
  const location = useLocation();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, showError] = useTimedMessage(3000);
  const [secondStep, setSecondStep] = useState<{ mode: 'totp' | 'enrol'; challenge: string } | null>(null);

  if (isAuthenticated && isAdminUser(user) && !busy) return <Navigate to="/admin/dashboard" replace />;

  const goOn = async (signedIn: User) => {
    const from = returnPath(location.state);
    if (isAdminUser(signedIn)) await navigate(from?.startsWith('/admin/') && from !== '/admin/login' ? from : '/admin/dashboard', { replace: true });
    else if (signedIn.role === 'auditor') await navigate('/audit', { replace: true });
    else await navigate('/account/home', { replace: true });
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!email.trim() || !password) {
      showError('Please enter your e-mail and password');
      return;
    }
    setBusy(true);
    try {
      const result = await beginSignIn(email.trim(), password);
      if (result.kind === 'signedIn') await goOn(result.user);
      else {
        setSecondStep({ mode: result.mode, challenge: result.challenge });
        setPassword('');
      }
    } catch (failure) {
      showError(errorMessage(failure));
      setBusy(false);
    }
  };

  return (
    <div className="admin-login">
      <PageTitle>Admin Login</PageTitle>
      <main className="admin-login-card">
        <Link to="/" className="admin-login-logo" aria-label={`${bankDetails.name} home`}>
          <Logo />
        </Link>
        <h1>Admin Login</h1>
        <p className="admin-lead">For bank staff. Customers sign in on the main sign-in page.</p>
        {secondStep ? (
          <SignInSecondStep
            mode={secondStep.mode}
            challenge={secondStep.challenge}
            onSignedIn={(signedIn) => void goOn(signedIn)}
            onRestart={() => {
              setSecondStep(null);
              setBusy(false);
            }}
          />
        ) : (
          <>
        {error ? <Alert kind="error">{error}</Alert> : null}
        <form onSubmit={(event) => void submit(event)} noValidate>
          <TextField label="E-mail" type="email" autoComplete="username" required value={email} onChange={(event) => setEmail(event.target.value)} />
          <TextField
            label="Password"
            type="password"
            autoComplete="current-password"
            required
            value={password}
            onChange={(event) => setPassword(event.target.value)}
          />
          <p className="admin-login-forgot">
            <Link to="/forgot-password">Forgot password?</Link>
          </p>
          <Button type="submit" loading={busy} className="btn-block">
            Sign in
          </Button>
        </form>
          </>
        )}
        <p className="admin-login-back">
          <Link to="/">← Back to home</Link>
        </p>
      </main>
    </div>
  );
}
