import { useRef, useState } from 'react';
import { Alert } from '../../../components/Alert';
import { Button } from '../../../components/Button';
import { LoadingBlock } from '../../../components/Spinner';
import { ApiError, errorMessage } from '../../../lib/api/apiError';
import { newIdempotencyKey } from '../../../lib/api/queries/newIdempotencyKey';
import { useSession } from '../../../lib/session/SessionContext';
import { ScheduleFields } from '../../standingOrders/ScheduleFields';
import { StandingOrderList } from '../../standingOrders/StandingOrderList';
import { describeSchedule, emptyScheduleDraft, scheduleOf, type Schedule, type ScheduleDraft } from '../../standingOrders/standingOrderTypes';
import { useChangeStandingOrder, useCreateStandingOrder, useStandingOrders } from '../../standingOrders/useStandingOrders';
import { PageTitle } from '../components/PageTitle';
import { TransferForm } from '../components/TransferForm';
import { TransferSummary } from '../components/TransferSummary';
import { emptyTransferDraft, toTransferRequest, type TransferDraft } from '../model/transferDraft';
import '../../standingOrders/standingOrders.css';

export const STANDING_ORDER_CREATED = 'Standing order created';

/**
 * /account/standing-orders: the customer's orders (next date, latest payments, pause / resume / cancel) and a new
 * one in the transfer's two steps — the transfer form with a schedule, then the summary with the payment pin.
 */
export function StandingOrdersPage() {
  const { user } = useSession();
  const orders = useStandingOrders();
  const create = useCreateStandingOrder();
  const change = useChangeStandingOrder();
  const [step, setStep] = useState<'list' | 'form' | 'summary'>('list');
  const [draft, setDraft] = useState<TransferDraft>(emptyTransferDraft);
  const [schedule, setSchedule] = useState<ScheduleDraft>(() => emptyScheduleDraft(new Date()));
  const [to, setTo] = useState('');
  const [serverError, setServerError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const attemptKey = useRef<string | null>(null);

  if (!user) return <LoadingBlock />;
  const today = new Date().toISOString().slice(0, 10);
  const checked = scheduleOf(schedule, today);

  const complete = (paymentPin: string) => {
    if (create.isPending || !checked.ok) return;
    attemptKey.current ??= newIdempotencyKey();
    setServerError(null);
    const request = {
      ...toTransferRequest(draft, to, paymentPin),
      schedule: checked.schedule satisfies Schedule,
    };
    create.mutate(
      { request, idempotencyKey: attemptKey.current },
      {
        onSuccess: (answer) => {
          attemptKey.current = null;
          setDraft(emptyTransferDraft);
          setSchedule(emptyScheduleDraft(new Date()));
          setStep('list');
          setNotice(`${STANDING_ORDER_CREATED}. ${answer.data.nextDate ? `Next payment: ${answer.data.nextDate}.` : ''}`.trim());
        },
        onError: (error) => {
          if (error instanceof ApiError) attemptKey.current = null;
          setServerError(error instanceof ApiError && error.message ? error.message : 'An error occurred');
        },
      },
    );
  };

  return (
    <div className="portal-page">
      <PageTitle
        lead={
          step === 'list'
            ? 'Payments that repeat on their own: rent, savings, a subscription.'
            : step === 'form'
              ? 'Step 1 of 2: payment and schedule'
              : 'Step 2 of 2: confirm with your payment pin'
        }
      >
        Standing orders
      </PageTitle>
      {notice && step === 'list' ? <Alert kind="success">{notice}</Alert> : null}
      {step === 'list' ? (
        <>
          <div className="form-actions">
            <Button
              onClick={() => {
                setNotice(null);
                setStep('form');
              }}
            >
              New standing order
            </Button>
          </div>
          {change.isError ? <Alert kind="error">{errorMessage(change.error)}</Alert> : null}
          {orders.isPending ? <LoadingBlock label="Loading your standing orders…" /> : null}
          {orders.isError ? <Alert kind="error">{errorMessage(orders.error)}</Alert> : null}
          {orders.isSuccess ? <StandingOrderList orders={orders.data} busy={change.isPending} onChange={(id, what) => change.mutate({ id, change: what })} /> : null}
        </>
      ) : null}
      {step === 'form' ? (
        <TransferForm
          user={user}
          draft={draft}
          onChange={setDraft}
          checkBalance={false}
          check={() => (checked.ok ? null : checked.message)}
          onNext={(name) => {
            setTo(name);
            setServerError(null);
            attemptKey.current = null;
            setStep('summary');
          }}
        >
          <ScheduleFields value={schedule} onChange={setSchedule} />
          <div className="form-actions">
            <Button variant="secondary" onClick={() => setStep('list')}>
              Back to my orders
            </Button>
          </div>
        </TransferForm>
      ) : null}
      {step === 'summary' && checked.ok ? (
        <TransferSummary
          draft={draft}
          to={to}
          busy={create.isPending}
          error={serverError}
          label="Confirm standing order"
          pinOptional={user.isBlocked || !user.hasPaymentPin}
          onBack={() => {
            setServerError(null);
            setStep('form');
          }}
          onComplete={complete}
        >
          <p className="standing-order-schedule">
            <strong>Schedule:</strong> {describeSchedule(checked.schedule)}
          </p>
        </TransferSummary>
      ) : null}
    </div>
  );
}
