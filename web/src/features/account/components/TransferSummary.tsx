import { useEffect, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { Alert } from '../../../components/Alert';
import { Button } from '../../../components/Button';
import { TextField } from '../../../components/Field';
import { formatMoney } from '../../../components/money';
import { PAYMENT_PIN_MESSAGE, PAYMENT_PIN_PATTERN, parseTypedDollars } from '@bank/domain/forms';
import type { TransferDraft } from '../model/transferDraft';

const accountLabel = { savings: 'Savings', checking: 'Checking', '': '' } as const;

export interface TransferSummaryProps {
  draft: TransferDraft;
  to: string;
  busy: boolean;
  /** The server's refusal of the last attempt, if any. */
  error: string | null;
  onBack: () => void;
  onComplete: (paymentPin: string) => void;
  /** More lines after the summary (a standing order's schedule). */
  children?: ReactNode;
  /** The form's accessible name (default 'Confirm transfer'). */
  label?: string;
  /**
   * The server refuses this payer before it looks at a pin (blocked, or no pin set: API.md's order), so an empty
   * pin is sent and the server's own message shows ('Please set your payment pin'); a pin typed is still checked.
   */
  pinOptional?: boolean;
}

/** Step 2 of a transfer: the summary, the 6-digit payment pin, Back and Complete. */
export function TransferSummary({ draft, to, busy, error, onBack, onComplete, children, label = 'Confirm transfer', pinOptional = false }: TransferSummaryProps) {
  const [pin, setPin] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const amount = parseTypedDollars(draft.amount);
  const heading = useRef<HTMLHeadingElement>(null);

  // The step changed: take keyboard and screen-reader users to the summary's heading.
  useEffect(() => {
    heading.current?.focus();
  }, []);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    if (!(pinOptional && pin === '') && !PAYMENT_PIN_PATTERN.test(pin)) {
      setProblem(PAYMENT_PIN_MESSAGE);
      return;
    }
    setProblem(null);
    onComplete(pin);
  };

  return (
    <form className="portal-card portal-form" onSubmit={submit} noValidate aria-label={label}>
      <h2 ref={heading} tabIndex={-1} className="summary-heading">
        Check and confirm
      </h2>
      {error ? <Alert kind="error">{error}</Alert> : null}
      <dl className="detail-list summary-list">
        <div>
          <dt>Amount</dt>
          <dd className="summary-amount">{amount.ok ? formatMoney(amount.cents / 100) : draft.amount}</dd>
        </div>
        <div>
          <dt>From</dt>
          <dd>{accountLabel[draft.from]}</dd>
        </div>
        <div>
          <dt>Recipient</dt>
          <dd>{to || 'Not found in our directory'}</dd>
        </div>
        <div>
          <dt>Account number</dt>
          <dd className="mono">{draft.accountNumber}</dd>
        </div>
        <div>
          <dt>Account type</dt>
          <dd>{accountLabel[draft.accountType]}</dd>
        </div>
        <div>
          <dt>Bank name</dt>
          <dd>{draft.bankName || '—'}</dd>
        </div>
        <div>
          <dt>Routing number</dt>
          {/* The dash for none in the text's font, as the other rows show it; a number in the mono one. */}
          <dd className={draft.routingNumber ? 'mono' : undefined}>{draft.routingNumber || '—'}</dd>
        </div>
        <div>
          <dt>Description</dt>
          <dd>{draft.description || '—'}</dd>
        </div>
      </dl>
      {children}
      <div className="pin-field">
        <TextField
          label="Payment pin"
          name="paymentPin"
          type="password"
          inputMode="numeric"
          autoComplete="off"
          pattern="\d{6}"
          maxLength={6}
          required
          value={pin}
          onChange={(event) => {
            setProblem(null);
            setPin(event.target.value.replace(/\D/g, '').slice(0, 6));
          }}
          error={problem ?? undefined}
          hint="The 6-digit pin the bank gave you"
        />
      </div>
      <div className="form-actions">
        <Button variant="secondary" onClick={onBack} disabled={busy}>
          Back
        </Button>
        <Button type="submit" loading={busy}>
          Complete
        </Button>
      </div>
    </form>
  );
}
