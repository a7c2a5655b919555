import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { Alert } from '../../components/Alert';
import { Button } from '../../components/Button';
import { LoadingBlock } from '../../components/Spinner';
import { ApiError, errorMessage } from '../../lib/api/apiError';
import { completeSecondFactor, enrolDuringSignIn } from '../../lib/api/secondFactorApi';
import type { EnrolmentSecret, SignInAnswer, User } from '../../lib/api/types';
import { useSession } from '../../lib/session/SessionContext';
import { CodeField, RecoveryCodeField, sixDigits } from './CodeField';
import { EnrolmentInstructions } from './EnrolmentInstructions';
import { RecoveryCodesPanel } from './RecoveryCodesPanel';
import './secondFactor.css';

export interface SignInSecondStepProps {
  readonly mode: 'totp' | 'enrol';
  readonly challenge: string;
  /** The session is stored: go where the sign-in leads. */
  readonly onSignedIn: (user: User) => void;
  /** Back to the e-mail and password (the challenge expired). */
  readonly onRestart: () => void;
}

const EXPIRED = 'Your sign-in has expired, please sign in again';

/**
 * The second step of sign-in. `totp`: a code of the authenticator app, or a recovery code. `enrol` (staff without a
 * second factor): the QR code and the key, a code to confirm, then the recovery codes, before the session starts.
 */
export function SignInSecondStep({ mode, challenge, onSignedIn, onRestart }: SignInSecondStepProps) {
  const { finishSignIn } = useSession();
  const headingId = useId();
  const heading = useRef<HTMLHeadingElement>(null);
  const [useRecovery, setUseRecovery] = useState(false);
  const [code, setCode] = useState('');
  const [recoveryCode, setRecoveryCode] = useState('');
  const [fieldError, setFieldError] = useState<string | undefined>();
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [enrolment, setEnrolment] = useState<EnrolmentSecret | null>(null);
  const [done, setDone] = useState<SignInAnswer | null>(null);

  useEffect(() => {
    heading.current?.focus();
  }, []);

  useEffect(() => {
    if (mode !== 'enrol') return;
    let cancelled = false;
    enrolDuringSignIn(challenge)
      .then((secret) => {
        if (!cancelled) setEnrolment(secret);
      })
      .catch((failure: unknown) => {
        if (!cancelled) setError(errorMessage(failure));
      });
    return () => {
      cancelled = true;
    };
  }, [mode, challenge]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    const digits = sixDigits(code);
    if (!useRecovery && !digits) {
      setFieldError('Enter the 6-digit code from your authenticator app');
      return;
    }
    if (useRecovery && !recoveryCode.trim()) {
      setFieldError('Enter one of your recovery codes');
      return;
    }
    setFieldError(undefined);
    setBusy(true);
    try {
      const answer = await completeSecondFactor(challenge, useRecovery ? { recoveryCode: recoveryCode.trim() } : { code: digits ?? '' });
      if (answer.recoveryCodes || answer.recoveryCodesLeft !== undefined) {
        setDone(answer);
        setBusy(false);
        return;
      }
      onSignedIn(finishSignIn(answer));
    } catch (failure) {
      setBusy(false);
      setCode('');
      setError(failure instanceof ApiError && failure.status === 401 && failure.message === 'Invalid code' ? 'That code is not valid. Try the newest code.' : errorMessage(failure));
    }
  };

  if (done?.recoveryCodes) {
    return <RecoveryCodesPanel codes={done.recoveryCodes} continueLabel="Continue" onContinue={() => onSignedIn(finishSignIn(done))} />;
  }
  if (done) {
    return (
      <section aria-labelledby={headingId}>
        <h2 id={headingId} ref={heading} tabIndex={-1} className="sf-step-title">
          Signed in with a recovery code
        </h2>
        <Alert kind={done.recoveryCodesLeft && done.recoveryCodesLeft > 2 ? 'info' : 'error'}>
          You have {done.recoveryCodesLeft} recovery {done.recoveryCodesLeft === 1 ? 'code' : 'codes'} left.
          {done.recoveryCodesLeft === 0 ? ' Ask the bank to reset your second factor, then set it up again.' : ''}
        </Alert>
        <Button onClick={() => onSignedIn(finishSignIn(done))} className="btn-block">
          Continue
        </Button>
      </section>
    );
  }

  const expired = error === EXPIRED;
  return (
    <section aria-labelledby={headingId}>
      <h2 id={headingId} ref={heading} tabIndex={-1} className="sf-step-title">
        {mode === 'enrol' ? 'Set up your second factor' : 'Enter your authentication code'}
      </h2>
      {mode === 'enrol' ? <p>Staff sign in with a code from an authenticator app as well as the password.</p> : null}
      <div aria-live="assertive">{error ? <Alert kind="error">{error}</Alert> : null}</div>
      {expired ? (
        <Button onClick={onRestart} className="btn-block">
          Sign in again
        </Button>
      ) : (
        <>
          {mode === 'enrol' && !enrolment && !error ? <LoadingBlock label="Preparing your key…" /> : null}
          {mode === 'enrol' && enrolment ? <EnrolmentInstructions enrolment={enrolment} /> : null}
          {mode === 'totp' || enrolment ? (
            <form onSubmit={(event) => void submit(event)} noValidate>
              {useRecovery ? (
                <RecoveryCodeField value={recoveryCode} onChange={setRecoveryCode} error={fieldError} />
              ) : (
                <CodeField value={code} onChange={setCode} error={fieldError} autoFocus={mode === 'totp'} />
              )}
              <Button type="submit" loading={busy} className="btn-block btn-large">
                {mode === 'enrol' ? 'Confirm and sign in' : 'Verify'}
              </Button>
            </form>
          ) : null}
          {mode === 'totp' ? (
            <p className="sf-switch">
              <Button
                variant="link"
                onClick={() => {
                  setUseRecovery((current) => !current);
                  setFieldError(undefined);
                  setError(null);
                }}
              >
                {useRecovery ? 'Use a code from your authenticator app' : 'Use a recovery code instead'}
              </Button>
            </p>
          ) : null}
        </>
      )}
    </section>
  );
}
