import { useState } from 'react';
import { Alert } from '../../components/Alert';
import { Button } from '../../components/Button';
import { ApiError, errorMessage } from '../../lib/api/apiError';
import { emailApi } from '../../lib/api/emailApi';
import { useSession } from '../../lib/session/SessionContext';
import './notifications.css';

type Sent = { kind: 'success' | 'error'; text: string } | null;

/**
 * The portal's banner while the customer's e-mail address is not confirmed (`emailVerified` false): where the link
 * went, and "Send again" (POST /user/verify-email). It goes once the address is confirmed and the user reloaded.
 */
export function EmailVerificationBanner() {
  const { user, refreshUser } = useSession();
  const [sending, setSending] = useState(false);
  const [sent, setSent] = useState<Sent>(null);
  if (!user || user.emailVerified !== false) return null;

  const sendAgain = async () => {
    setSending(true);
    setSent(null);
    try {
      const answer = await emailApi.resendVerification();
      setSent({ kind: 'success', text: answer.message });
      // The address may have been confirmed meanwhile (in another browser): the reloaded user ends the banner then.
      refreshUser().catch((error: unknown) => console.warn('Could not reload the signed-in user.', error));
    } catch (error) {
      const wait = error instanceof ApiError && error.status === 429 ? error.retryAfterSeconds : undefined;
      setSent({ kind: 'error', text: wait ? `${errorMessage(error)}. You can ask again in ${wait} seconds.` : errorMessage(error) });
    } finally {
      setSending(false);
    }
  };

  return (
    <div role="region" aria-label="Confirm your e-mail address" className="email-banner">
      <Alert kind="info">
        <p className="email-banner-text">
          <strong>Please confirm your e-mail address.</strong> We sent a link to <strong>{user.email}</strong>. Open it to confirm that the
          address is yours.
        </p>
        <div className="email-banner-actions">
          <Button variant="secondary" loading={sending} onClick={() => void sendAgain()}>
            Send again
          </Button>
          <span aria-live="polite" className={sent?.kind === 'error' ? 'email-banner-error' : 'email-banner-sent'}>
            {sent?.text}
          </span>
        </div>
      </Alert>
    </div>
  );
}
