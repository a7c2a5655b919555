import { useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { domainErrorMessages } from '@bank/domain/forms';
import { Alert } from '../../../components/Alert';
import { LoadingBlock } from '../../../components/Spinner';
import { ApiError } from '../../../lib/api/apiError';
import { newIdempotencyKey } from '../../../lib/api/queries/newIdempotencyKey';
import { useReloadUser } from '../../../lib/api/queries/useReloadUser';
import { useTransfer } from '../../../lib/api/queries/useTransfer';
import { useSession } from '../../../lib/session/SessionContext';
import { PageTitle } from '../components/PageTitle';
import { TransferForm } from '../components/TransferForm';
import { TransferSummary } from '../components/TransferSummary';
import { emptyTransferDraft, toTransferRequest, type TransferDraft } from '../model/transferDraft';

export const TRANSFER_SUCCESSFUL = 'Transfer Successful';

/**
 * /account/transfer: the form, then the summary with the payment pin. Each attempt carries one Idempotency-Key,
 * so a double click (or a retry after a lost answer) never moves money twice. Reloads the user on entry.
 */
export function TransferPage() {
  const { user, refreshUser } = useSession();
  useReloadUser();
  const navigate = useNavigate();
  const transfer = useTransfer();
  const [step, setStep] = useState<'form' | 'summary'>('form');
  const [draft, setDraft] = useState<TransferDraft>(emptyTransferDraft);
  const [to, setTo] = useState('');
  const [serverError, setServerError] = useState<string | null>(null);
  const attemptKey = useRef<string | null>(null);
  const inFlight = useRef(false);

  if (!user) return <LoadingBlock />;

  const complete = (paymentPin: string) => {
    if (inFlight.current) return;
    inFlight.current = true;
    attemptKey.current ??= newIdempotencyKey();
    setServerError(null);
    transfer.mutate(
      { request: toTransferRequest(draft, to, paymentPin), idempotencyKey: attemptKey.current },
      {
        onSuccess: () => {
          attemptKey.current = null;
          setDraft(emptyTransferDraft);
          setTo('');
          setStep('form');
          void refreshUser().catch(() => undefined);
          void navigate('/account/transactions', { state: { message: TRANSFER_SUCCESSFUL } });
        },
        onError: (error) => {
          // The server answered, so this attempt is over: the next one gets a new key. After a network failure the
          // key is kept, so trying again cannot execute the transfer a second time.
          if (error instanceof ApiError) attemptKey.current = null;
          // Spec §8: a browser alert with the server's message or 'An error occurred'; the summary keeps it in the page too.
          const message = error instanceof ApiError && error.message ? error.message : 'An error occurred';
          setServerError(message);
          window.alert(message);
        },
        onSettled: () => {
          inFlight.current = false;
        },
      },
    );
  };

  return (
    <div className="portal-page">
      <PageTitle lead={step === 'form' ? 'Step 1 of 2: transfer details' : 'Step 2 of 2: confirm with your payment pin'}>Transfer money</PageTitle>
      {user.isBlocked ? <Alert kind="error">{domainErrorMessages.blocked}</Alert> : null}
      {!user.hasPaymentPin && !user.isBlocked ? (
        <Alert kind="info">You have no payment pin yet. Please contact bank support to set one before you transfer.</Alert>
      ) : null}
      <ol className="stepper" aria-label="Progress">
        <li className={step === 'form' ? 'stepper-current' : 'stepper-done'} aria-current={step === 'form' ? 'step' : undefined}>
          Details
        </li>
        <li className={step === 'summary' ? 'stepper-current' : ''} aria-current={step === 'summary' ? 'step' : undefined}>
          Confirm
        </li>
      </ol>
      {step === 'form' ? (
        <TransferForm
          user={user}
          draft={draft}
          onChange={setDraft}
          onNext={(name) => {
            setTo(name);
            setServerError(null);
            attemptKey.current = null;
            setStep('summary');
          }}
        />
      ) : (
        <TransferSummary
          draft={draft}
          to={to}
          busy={transfer.isPending}
          error={serverError}
          onBack={() => {
            setServerError(null);
            setStep('form');
          }}
          onComplete={complete}
          pinOptional={user.isBlocked || !user.hasPaymentPin}
        />
      )}
    </div>
  );
}
