import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { Alert } from '../../components/Alert';
import { Button } from '../../components/Button';
import { Dialog } from '../../components/Dialog';
import { LoadingBlock } from '../../components/Spinner';
import { errorMessage } from '../../lib/api/apiError';
import { queryKeys } from '../../lib/api/queries/queryKeys';
import { sessionsApi } from '../../lib/api/secondFactorApi';
import type { SessionInfo } from '../../lib/api/types';
import { useSession } from '../../lib/session/SessionContext';
import { shortDateTime } from './sessionFormat';
import './secondFactor.css';

/**
 * Settings → Where you're signed in: every session (device, address, started, last used) with "Sign out" on each,
 * and "Sign out everywhere else". Signing out the current one signs this browser out.
 */
export function SessionsList() {
  const { user, forget } = useSession();
  const userId = user?._id ?? '';
  const queryClient = useQueryClient();
  const headingId = useId();
  const sessions = useQuery({ queryKey: queryKeys.sessions(userId), queryFn: sessionsApi.list, enabled: Boolean(userId) });
  const [busy, setBusy] = useState<string | null>(null);
  const [message, setMessage] = useState<{ kind: 'success' | 'error'; text: string } | null>(null);
  const [confirmOthers, setConfirmOthers] = useState(false);

  const refresh = () => queryClient.invalidateQueries({ queryKey: queryKeys.sessions(userId) });

  const signOut = async (session: SessionInfo) => {
    setBusy(session.id);
    setMessage(null);
    try {
      await sessionsApi.revoke(session.id);
      if (session.current) {
        forget();
        return;
      }
      setMessage({ kind: 'success', text: `Signed out of ${session.device}` });
      await refresh();
    } catch (failure) {
      setMessage({ kind: 'error', text: errorMessage(failure) });
    } finally {
      setBusy(null);
    }
  };

  const signOutOthers = async () => {
    setBusy('others');
    setMessage(null);
    try {
      const answer = await sessionsApi.revokeOthers();
      setMessage({ kind: 'success', text: `${answer.message} (${answer.data.revoked} ${answer.data.revoked === 1 ? 'session' : 'sessions'})` });
      await refresh();
    } catch (failure) {
      setMessage({ kind: 'error', text: errorMessage(failure) });
    } finally {
      setBusy(null);
      setConfirmOthers(false);
    }
  };

  const list = sessions.data ?? [];
  return (
    <section className="portal-card sf-section" aria-labelledby={headingId}>
      <h2 id={headingId}>Where you&apos;re signed in</h2>
      <div aria-live="polite">{message ? <Alert kind={message.kind}>{message.text}</Alert> : null}</div>
      {sessions.isPending ? <LoadingBlock label="Loading your sessions…" /> : null}
      {sessions.isError ? <Alert kind="error">{errorMessage(sessions.error)}</Alert> : null}
      {sessions.data ? (
        <ul className="sf-sessions" aria-label="Sessions">
          {list.map((session) => (
            <li key={session.id} className="sf-session">
              <div>
                <p className="sf-session-device">
                  {session.device}
                  {session.current ? <span className="sf-current">This device</span> : null}
                </p>
                <p className="sf-session-meta">
                  {session.address || 'Unknown address'} · signed in {shortDateTime(session.createdAt)} · last used {shortDateTime(session.lastUsedAt)}
                </p>
              </div>
              <Button variant="secondary" onClick={() => void signOut(session)} loading={busy === session.id} aria-label={`Sign out ${session.device}${session.current ? ' (this device)' : ''}, signed in ${shortDateTime(session.createdAt)}`}>
                Sign out
              </Button>
            </li>
          ))}
        </ul>
      ) : null}
      {list.length > 1 ? (
        <Button variant="danger" onClick={() => setConfirmOthers(true)} loading={busy === 'others'}>
          Sign out everywhere else
        </Button>
      ) : null}
      <Dialog
        open={confirmOthers}
        title="Sign out everywhere else?"
        confirmLabel="Sign out everywhere else"
        danger
        busy={busy === 'others'}
        onCancel={() => setConfirmOthers(false)}
        onConfirm={() => void signOutOthers()}
      >
        <p>Every other browser and device signed in to your account will need to sign in again.</p>
      </Dialog>
    </section>
  );
}
