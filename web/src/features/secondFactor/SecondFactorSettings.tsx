import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import { Alert } from '../../components/Alert';
import { Button } from '../../components/Button';
import { TextField } from '../../components/Field';
import { LoadingBlock } from '../../components/Spinner';
import { errorMessage } from '../../lib/api/apiError';
import { queryKeys } from '../../lib/api/queries/queryKeys';
import { secondFactorApi } from '../../lib/api/secondFactorApi';
import type { EnrolmentSecret } from '../../lib/api/types';
import { useSession } from '../../lib/session/SessionContext';
import { CodeField, sixDigits } from './CodeField';
import { EnrolmentInstructions } from './EnrolmentInstructions';
import { RecoveryCodesPanel } from './RecoveryCodesPanel';
import './secondFactor.css';

type Stage = { kind: 'idle' } | { kind: 'setup'; enrolment: EnrolmentSecret } | { kind: 'codes'; codes: string[] } | { kind: 'turnOff' };

/**
 * Settings → Two-step sign-in: whether it is on; turning it on (QR code and key, a code to confirm, the recovery
 * codes once); a customer turning it off with the password and a current code. Staff keep theirs (required).
 */
export function SecondFactorSettings() {
  const { user } = useSession();
  const userId = user?._id ?? '';
  const queryClient = useQueryClient();
  const headingId = useId();
  const status = useQuery({ queryKey: queryKeys.secondFactor(userId), queryFn: secondFactorApi.status, enabled: Boolean(userId) });
  const [stage, setStage] = useState<Stage>({ kind: 'idle' });
  const [code, setCode] = useState('');
  const [password, setPassword] = useState('');
  const [fieldError, setFieldError] = useState<string | undefined>();
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const reset = (next: Stage) => {
    setStage(next);
    setCode('');
    setPassword('');
    setFieldError(undefined);
    setError(null);
  };
  const refresh = () => queryClient.invalidateQueries({ queryKey: queryKeys.secondFactor(userId) });

  /** Runs one call to the API with the form busy; a refusal is shown, and the code typed is cleared for another try. */
  const run = async (work: () => Promise<void>, options: { clearCode?: boolean } = {}) => {
    setBusy(true);
    setError(null);
    try {
      await work();
    } catch (failure) {
      if (options.clearCode) setCode('');
      setError(errorMessage(failure));
    } finally {
      setBusy(false);
    }
  };

  const start = () => {
    setNotice(null);
    return run(async () => reset({ kind: 'setup', enrolment: await secondFactorApi.setup() }));
  };

  const confirm = async (event: FormEvent) => {
    event.preventDefault();
    const digits = sixDigits(code);
    if (!digits) {
      setFieldError('Enter the 6-digit code from your authenticator app');
      return;
    }
    await run(
      async () => {
        const answer = await secondFactorApi.confirm(digits);
        reset({ kind: 'codes', codes: answer.recoveryCodes });
        await refresh();
      },
      { clearCode: true },
    );
  };

  const turnOff = async (event: FormEvent) => {
    event.preventDefault();
    const digits = sixDigits(code);
    if (!password || !digits) {
      setFieldError(!digits ? 'Enter the 6-digit code from your authenticator app' : undefined);
      setError(!password ? 'Enter your password' : null);
      return;
    }
    await run(
      async () => {
        const answer = await secondFactorApi.remove(password, digits);
        reset({ kind: 'idle' });
        setNotice(answer.message);
        await refresh();
        await queryClient.invalidateQueries({ queryKey: queryKeys.sessions(userId) });
      },
      { clearCode: true },
    );
  };

  const data = status.data;
  const cancel = (
    <Button variant="secondary" onClick={() => reset({ kind: 'idle' })} disabled={busy}>
      Cancel
    </Button>
  );
  return (
    <section className="portal-card sf-section" aria-labelledby={headingId}>
      <h2 id={headingId}>Two-step sign-in</h2>
      <p>A code from an authenticator app on your phone, asked for after your password, keeps your account safe even if someone learns the password.</p>
      {status.isPending ? <LoadingBlock label="Loading…" /> : null}
      {status.isError ? <Alert kind="error">{errorMessage(status.error)}</Alert> : null}
      <div aria-live="polite">{notice ? <Alert kind="success">{notice}</Alert> : null}</div>
      {data && stage.kind === 'idle' ? (
        <>
          <p>
            Status:{' '}
            <span className={`sf-status ${data.enabled ? 'sf-status-on' : 'sf-status-off'}`}>{data.enabled ? 'On' : 'Off'}</span>
            {data.enabled ? ` · ${data.recoveryCodesLeft} recovery ${data.recoveryCodesLeft === 1 ? 'code' : 'codes'} left` : ''}
          </p>
          {data.required ? <p>The bank requires two-step sign-in for staff. If you lose your phone, another admin can reset it.</p> : null}
          {error ? <Alert kind="error">{error}</Alert> : null}
          {!data.enabled ? (
            <Button onClick={() => void start()} loading={busy}>
              Turn on two-step sign-in
            </Button>
          ) : null}
          {data.enabled && !data.required && user?.role === 'customer' ? (
            <Button variant="secondary" onClick={() => reset({ kind: 'turnOff' })}>
              Turn off two-step sign-in
            </Button>
          ) : null}
        </>
      ) : null}
      {stage.kind === 'setup' ? (
        <>
          <EnrolmentInstructions enrolment={stage.enrolment} />
          <div aria-live="assertive">{error ? <Alert kind="error">{error}</Alert> : null}</div>
          <form onSubmit={(event) => void confirm(event)} noValidate className="portal-form-narrow">
            <CodeField value={code} onChange={setCode} error={fieldError} />
            <div className="sf-actions">
              <Button type="submit" loading={busy}>
                Confirm
              </Button>
              {cancel}
            </div>
          </form>
        </>
      ) : null}
      {stage.kind === 'codes' ? <RecoveryCodesPanel codes={stage.codes} continueLabel="Done" onContinue={() => reset({ kind: 'idle' })} /> : null}
      {stage.kind === 'turnOff' ? (
        <form onSubmit={(event) => void turnOff(event)} noValidate className="portal-form-narrow">
          <p>Confirm with your password and a current code. Your other sessions will be signed out.</p>
          <div aria-live="assertive">{error ? <Alert kind="error">{error}</Alert> : null}</div>
          <TextField label="Password" type="password" autoComplete="current-password" required value={password} onChange={(event) => setPassword(event.target.value)} />
          <CodeField value={code} onChange={setCode} error={fieldError} />
          <div className="sf-actions">
            <Button type="submit" variant="danger" loading={busy}>
              Turn off
            </Button>
            {cancel}
          </div>
        </form>
      ) : null}
    </section>
  );
}
