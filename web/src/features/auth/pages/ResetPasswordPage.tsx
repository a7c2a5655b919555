import { useEffect, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { Link, useSearchParams } from 'react-router';
import { Alert } from '../../../components/Alert';
import { Button } from '../../../components/Button';
import { ButtonLink } from '../../../components/ButtonLink';
import { TextField } from '../../../components/Field';
import { Icon } from '../../../components/Icon';
import { PageTitle } from '../../../components/PageTitle';
import { ApiError, errorMessage } from '../../../lib/api/apiError';
import { emailApi, type ResetProof } from '../../../lib/api/emailApi';
import { CodeField, RecoveryCodeField, sixDigits } from '../../secondFactor/CodeField';
import { AuthCard } from '../components/AuthCard';
import { checkNewPassword, NEW_PASSWORD_RULES, type NewPasswordErrors } from '../model/newPasswordRules';

export const INVALID_LINK = 'Invalid or expired link';
const INVALID_CODE = 'Invalid code';

type Outcome = { kind: 'done'; message: string } | { kind: 'badLink' } | null;
type ProofErrors = { code?: string; recoveryCode?: string };

/**
 * /reset-password?token=…: the page the reset e-mail links to. The new password (the sign-up rules, shown), and,
 * once the server says the account has a second factor (401 'Invalid code'), a code of the authenticator app or a
 * recovery code. A refused code leaves the link usable; an expired or used link leads back to /forgot-password.
 */
export function ResetPasswordPage() {
  const [params] = useSearchParams();
  const token = params.get('token')?.trim() ?? '';
  const [newPassword, setNewPassword] = useState('');
  const [confirmPassword, setConfirmPassword] = useState('');
  const [errors, setErrors] = useState<NewPasswordErrors & ProofErrors>({});
  const [needsCode, setNeedsCode] = useState(false);
  const [useRecovery, setUseRecovery] = useState(false);
  const [code, setCode] = useState('');
  const [recoveryCode, setRecoveryCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<Outcome>(token ? null : { kind: 'badLink' });
  const outcomeHeading = useRef<HTMLHeadingElement>(null);

  useEffect(() => {
    if (outcome) outcomeHeading.current?.focus();
  }, [outcome]);

  const proof = (): { proof?: ResetProof; error?: ProofErrors } => {
    if (!needsCode) return { proof: {} };
    if (useRecovery) {
      const value = recoveryCode.trim();
      return value ? { proof: { recoveryCode: value } } : { error: { recoveryCode: 'Enter one of your recovery codes' } };
    }
    const digits = sixDigits(code);
    return digits ? { proof: { code: digits } } : { error: { code: 'Enter the 6-digit code from your authenticator app' } };
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    const found: NewPasswordErrors & ProofErrors = { ...checkNewPassword(newPassword, confirmPassword) };
    const second = proof();
    Object.assign(found, second.error);
    setErrors(found);
    if (Object.keys(found).length > 0 || !second.proof) return;
    setBusy(true);
    try {
      const answer = await emailApi.resetPassword({ token, newPassword }, second.proof);
      setOutcome({ kind: 'done', message: answer.message });
    } catch (failure) {
      if (failure instanceof ApiError && failure.status === 401 && failure.message === INVALID_CODE) {
        if (!needsCode) {
          setNeedsCode(true);
          setError('Your account uses two-step sign-in. Enter a code from your authenticator app, or one of your recovery codes, to reset your password.');
        } else {
          setError(useRecovery ? 'That recovery code is not valid. Check it and try again.' : 'That code is not valid. Try the newest code from your app.');
        }
        setCode('');
        setRecoveryCode('');
      } else if (failure instanceof ApiError && failure.status === 400 && failure.message === INVALID_LINK) {
        setOutcome({ kind: 'badLink' });
      } else if (failure instanceof ApiError && failure.status === 429 && failure.retryAfterSeconds) {
        setError(`${failure.message}. Please try again in ${failure.retryAfterSeconds} seconds.`);
      } else {
        setError(errorMessage(failure));
      }
    } finally {
      setBusy(false);
    }
  };

  if (outcome?.kind === 'done') {
    return (
      <Frame>
        <section className="auth-answer" aria-labelledby="reset-outcome">
          <Icon name="check" size={40} />
          <h2 id="reset-outcome" ref={outcomeHeading} tabIndex={-1}>
            Your password has been changed
          </h2>
          <Alert kind="success">{outcome.message}</Alert>
          <p>For your safety we signed you out everywhere and sent a notice to your e-mail address. Sign in with your new password.</p>
          <ButtonLink to="/signin" className="btn-block" size="large">
            Sign in
          </ButtonLink>
        </section>
      </Frame>
    );
  }
  if (outcome?.kind === 'badLink') {
    return (
      <Frame>
        <section className="auth-answer" aria-labelledby="reset-outcome">
          <Icon name="block" size={40} />
          <h2 id="reset-outcome" ref={outcomeHeading} tabIndex={-1}>
            This link cannot be used
          </h2>
          <Alert kind="error">{INVALID_LINK}</Alert>
          <p>A reset link works once, for 30 minutes. Ask for a new one and use the newest e-mail we send.</p>
          <ButtonLink to="/forgot-password" className="btn-block" size="large">
            Ask for a new link
          </ButtonLink>
        </section>
      </Frame>
    );
  }

  return (
    <Frame intro={<p>Use a password you do not use anywhere else. Once it is changed, you are signed out everywhere.</p>}>
      <form onSubmit={(event) => void submit(event)} noValidate aria-labelledby="auth-title">
        <div aria-live="assertive">{error ? <Alert kind="error">{error}</Alert> : null}</div>
        <TextField
          label="New password"
          type="password"
          name="newPassword"
          autoComplete="new-password"
          required
          hint={NEW_PASSWORD_RULES}
          value={newPassword}
          error={errors.newPassword}
          onChange={(event) => setNewPassword(event.target.value)}
        />
        <TextField
          label="Confirm new password"
          type="password"
          name="confirmPassword"
          autoComplete="new-password"
          required
          value={confirmPassword}
          error={errors.confirmPassword}
          onChange={(event) => setConfirmPassword(event.target.value)}
        />
        {needsCode ? (
          <fieldset className="auth-second-factor">
            <legend>Two-step sign-in</legend>
            {useRecovery ? (
              <RecoveryCodeField value={recoveryCode} onChange={setRecoveryCode} error={errors.recoveryCode} />
            ) : (
              <CodeField value={code} onChange={setCode} error={errors.code} autoFocus />
            )}
            <Button
              variant="link"
              onClick={() => {
                setUseRecovery((current) => !current);
                setErrors(({ code: _code, recoveryCode: _recovery, ...rest }) => rest);
              }}
            >
              {useRecovery ? 'Use a code from your authenticator app' : 'Use a recovery code instead'}
            </Button>
          </fieldset>
        ) : null}
        <Button type="submit" loading={busy} className="btn-block btn-large">
          Reset password
        </Button>
      </form>
    </Frame>
  );
}

function Frame({ intro, children }: { intro?: ReactNode; children: ReactNode }) {
  return (
    <>
      <PageTitle>Choose a new password</PageTitle>
      <AuthCard
        title="Choose a new password"
        intro={intro}
        footer={
          <p>
            Remembered it? <Link to="/signin">Back to login</Link>
          </p>
        }
      >
        {children}
      </AuthCard>
    </>
  );
}
