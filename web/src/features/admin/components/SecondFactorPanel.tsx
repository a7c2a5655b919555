import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Alert } from '../../../components/Alert';
import { Button } from '../../../components/Button';
import { Dialog } from '../../../components/Dialog';
import { TextAreaField } from '../../../components/Field';
import { LoadingBlock } from '../../../components/Spinner';
import { errorMessage } from '../../../lib/api/apiError';
import { queryKeys } from '../../../lib/api/queries/queryKeys';
import { adminSecondFactorApi } from '../../../lib/api/secondFactorApi';

/**
 * The user detail's "Two-step sign-in": on or off, and "Reset second factor" (a lost phone) behind a confirmation
 * that asks for the reason, which is recorded with the admin's name for auditors.
 */
export function SecondFactorPanel({ userId, name }: { readonly userId: string; readonly name: string }) {
  const queryClient = useQueryClient();
  const status = useQuery({ queryKey: queryKeys.adminSecondFactor(userId), queryFn: () => adminSecondFactorApi.status(userId) });
  const [open, setOpen] = useState(false);
  const [reason, setReason] = useState('');
  const [reasonError, setReasonError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<{ kind: 'success' | 'error'; text: string } | null>(null);

  const reset = async () => {
    if (!reason.trim()) {
      setReasonError('A reason is required');
      return;
    }
    setBusy(true);
    try {
      const answer = await adminSecondFactorApi.reset(userId, reason.trim());
      setMessage({ kind: 'success', text: `${answer.message}: ${name} signs in with the password alone until they set it up again` });
      setOpen(false);
      setReason('');
      await queryClient.invalidateQueries({ queryKey: queryKeys.adminSecondFactor(userId) });
    } catch (failure) {
      setOpen(false);
      setMessage({ kind: 'error', text: errorMessage(failure) });
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="admin-card" aria-labelledby="second-factor-heading">
      <h2 id="second-factor-heading">Two-step sign-in</h2>
      <div aria-live="polite">{message ? <Alert kind={message.kind}>{message.text}</Alert> : null}</div>
      {status.isPending ? <LoadingBlock label="Loading…" /> : null}
      {status.isError ? <Alert kind="error">{errorMessage(status.error)}</Alert> : null}
      {status.data ? (
        <>
          <p>
            {status.data.enabled
              ? `On, ${status.data.recoveryCodesLeft} recovery ${status.data.recoveryCodesLeft === 1 ? 'code' : 'codes'} left`
              : 'Off: signs in with the password alone'}
          </p>
          {status.data.enabled ? (
            <Button variant="danger" onClick={() => setOpen(true)}>
              Reset second factor
            </Button>
          ) : null}
        </>
      ) : null}
      <Dialog
        open={open}
        title={`Reset ${name}'s second factor?`}
        confirmLabel="Reset second factor"
        danger
        busy={busy}
        onCancel={() => {
          setOpen(false);
          setReasonError(undefined);
        }}
        onConfirm={() => void reset()}
      >
        <p>Do this only after checking who is asking (a lost or replaced phone). Their sessions end; the reset is recorded with your name.</p>
        <TextAreaField label="Reason" required rows={3} maxLength={500} value={reason} error={reasonError} onChange={(event) => setReason(event.target.value)} />
      </Dialog>
    </section>
  );
}
