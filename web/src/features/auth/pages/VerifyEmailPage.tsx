import { useEffect, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import { Alert } from '../../../components/Alert';
import { ButtonLink } from '../../../components/ButtonLink';
import { Icon } from '../../../components/Icon';
import { PageTitle } from '../../../components/PageTitle';
import { LoadingBlock } from '../../../components/Spinner';
import { ApiError, errorMessage } from '../../../lib/api/apiError';
import { emailApi, type MessageAnswer } from '../../../lib/api/emailApi';
import { useSession } from '../../../lib/session/SessionContext';
import { AuthCard } from '../components/AuthCard';

type State = { kind: 'confirming' } | { kind: 'confirmed'; message: string } | { kind: 'badLink'; message: string } | { kind: 'failed'; message: string };

/**
 * One confirmation per token for the life of the page: React runs a mount effect twice in development, and the
 * link works once, so a second POST would report the link as used.
 */
const confirmations = new Map<string, Promise<MessageAnswer>>();

function confirmOnce(token: string): Promise<MessageAnswer> {
  let pending = confirmations.get(token);
  if (!pending) {
    pending = emailApi.verifyEmail(token);
    confirmations.set(token, pending);
    // Only the link's own refusal (400) is final; a failure of the network or the server may be tried again.
    pending.catch((error: unknown) => {
      if (!(error instanceof ApiError && error.status === 400)) confirmations.delete(token);
    });
  }
  return pending;
}

/**
 * /verify-email?token=…: the page the confirmation e-mail links to. It confirms the address as it opens, says so,
 * and refreshes the signed-in user of this browser first (so the portal's banner has gone when it says so).
 */
export function VerifyEmailPage() {
  const [params] = useSearchParams();
  const token = params.get('token')?.trim() ?? '';
  const { isAuthenticated, refreshUser } = useSession();
  const [state, setState] = useState<State>(token ? { kind: 'confirming' } : { kind: 'badLink', message: 'Invalid or expired link' });
  const [attempt, setAttempt] = useState(0);
  const heading = useRef<HTMLHeadingElement>(null);

  useEffect(() => {
    if (!token) return;
    let current = true;
    setState({ kind: 'confirming' });
    confirmOnce(token)
      .then(async (answer) => {
        // The signed-in user is reloaded before the answer shows: behind "Go to your account" the portal no longer
        // shows the banner asking to confirm the address.
        if (isAuthenticated) await refreshUser().catch((error: unknown) => console.warn('Could not reload the signed-in user.', error));
        if (!current) return;
        setState({ kind: 'confirmed', message: answer.message });
      })
      .catch((error: unknown) => {
        if (!current) return;
        if (error instanceof ApiError && error.status === 400) setState({ kind: 'badLink', message: error.message });
        else setState({ kind: 'failed', message: errorMessage(error) });
      });
    return () => {
      current = false;
    };
    // Only a new token or "Try again" confirms again; the session is read when the answer comes.
  }, [token, attempt]);

  useEffect(() => {
    if (state.kind !== 'confirming') heading.current?.focus();
  }, [state.kind]);

  const next = isAuthenticated ? { to: '/account/home', label: 'Go to your account' } : { to: '/signin', label: 'Sign in' };
  return (
    <>
      <PageTitle>Confirm your e-mail address</PageTitle>
      <AuthCard title="Confirm your e-mail address">
        {state.kind === 'confirming' ? <LoadingBlock label="Confirming your e-mail address…" /> : null}
        {state.kind === 'confirmed' ? (
          <section className="auth-answer" aria-labelledby="verify-outcome">
            <Icon name="check" size={40} />
            <h2 id="verify-outcome" ref={heading} tabIndex={-1}>
              Thank you
            </h2>
            <Alert kind="success">{state.message}</Alert>
            <p>We will send your statements and notices to this address.</p>
            <ButtonLink to={next.to} className="btn-block" size="large">
              {next.label}
            </ButtonLink>
          </section>
        ) : null}
        {state.kind === 'badLink' ? (
          <section className="auth-answer" aria-labelledby="verify-outcome">
            <Icon name="block" size={40} />
            <h2 id="verify-outcome" ref={heading} tabIndex={-1}>
              This link cannot be used
            </h2>
            <Alert kind="error">{state.message}</Alert>
            <p>
              A confirmation link works once. If your address is not confirmed yet, sign in and choose &ldquo;Send again&rdquo; in the banner at the
              top of your account.
            </p>
            <ButtonLink to={next.to} className="btn-block" size="large">
              {next.label}
            </ButtonLink>
          </section>
        ) : null}
        {state.kind === 'failed' ? (
          <section className="auth-answer" aria-labelledby="verify-outcome">
            <h2 id="verify-outcome" ref={heading} tabIndex={-1}>
              We could not confirm your address
            </h2>
            <Alert kind="error">{state.message}</Alert>
            <button type="button" className="btn btn-primary btn-block" onClick={() => setAttempt((count) => count + 1)}>
              Try again
            </button>
          </section>
        ) : null}
      </AuthCard>
    </>
  );
}
