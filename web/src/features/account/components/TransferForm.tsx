import { useEffect, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { Alert } from '../../../components/Alert';
import { Button } from '../../../components/Button';
import { SelectField, TextField } from '../../../components/Field';
import { formatMoney } from '../../../components/money';
import { Spinner } from '../../../components/Spinner';
import type { User } from '../../../lib/api/types';
import { ROUTING_NUMBER_DIGITS } from '@bank/domain/forms';
import { validateTransfer, type TransferDraft } from '../model/transferDraft';
import { useRecipientLookup } from './RecipientLookup';

export interface TransferFormProps {
  user: User;
  draft: TransferDraft;
  onChange: (draft: TransferDraft) => void;
  /** Called with the recipient's name (from the lookup) once the checks pass. */
  onNext: (to: string) => void;
  /** More fields before the actions (a standing order's schedule). */
  children?: ReactNode;
  /** A further check of those fields (the message to show, or null). */
  check?: () => string | null;
  /** Whether the amount must be on the account now (default true; a standing order pays later). */
  checkBalance?: boolean;
}

/** Step 1 of a transfer: where from, how much, to whom. */
export function TransferForm({ user, draft, onChange, onNext, children, check, checkBalance = true }: TransferFormProps) {
  const [problem, setProblem] = useState<string | null>(null);
  const lookup = useRecipientLookup(draft);
  // The recipient is only ever the lookup's answer: a failed or empty lookup leaves it cleared.
  const to = lookup.kind === 'found' ? lookup.name : '';
  const failedAttempt = lookup.kind === 'failed' ? lookup.attempt : null;
  const failedMessage = lookup.kind === 'failed' ? lookup.message : null;
  const announced = useRef<string | null>(null);

  // Spec §8: a failed lookup (not a no-match) is a browser alert with the server's message or 'An error occurred',
  // once per failure; the message also stays in the form below.
  useEffect(() => {
    if (failedAttempt === null || failedMessage === null || announced.current === failedAttempt) return;
    announced.current = failedAttempt;
    window.alert(failedMessage);
  }, [failedAttempt, failedMessage]);

  const set = (field: keyof TransferDraft) => (event: { target: { value: string } }) => {
    setProblem(null);
    onChange({ ...draft, [field]: event.target.value });
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const message = validateTransfer(draft, user, to, { checkBalance }) ?? check?.() ?? null;
    setProblem(message);
    if (message === null) onNext(to);
  };

  return (
    <form className="portal-card portal-form" onSubmit={submit} noValidate aria-label="Transfer details">
      {problem ? <Alert kind="error">{problem}</Alert> : null}
      <fieldset className="form-section">
        <legend>From</legend>
        <div className="form-grid">
          <SelectField label="From account" name="from" value={draft.from} onChange={set('from')}>
            <option value="savings">Savings ({formatMoney(user.account.savings)})</option>
            <option value="checking">Checking ({formatMoney(user.account.checking)})</option>
          </SelectField>
          <TextField
            label="Amount (USD)"
            name="amount"
            inputMode="decimal"
            autoComplete="off"
            placeholder="0.00"
            required
            value={draft.amount}
            onChange={set('amount')}
            hint="At least $1.00, up to two decimals"
          />
        </div>
      </fieldset>
      <fieldset className="form-section">
        <legend>To</legend>
        <div className="form-grid">
          <TextField label="Bank name" name="bankName" autoComplete="off" value={draft.bankName} onChange={set('bankName')} />
          <TextField
            label="Account number"
            name="accountNumber"
            inputMode="numeric"
            autoComplete="off"
            required
            value={draft.accountNumber}
            onChange={set('accountNumber')}
          />
          <TextField
            label="Routing number"
            name="routingNumber"
            inputMode="numeric"
            autoComplete="off"
            minLength={ROUTING_NUMBER_DIGITS}
            maxLength={ROUTING_NUMBER_DIGITS}
            value={draft.routingNumber}
            onChange={set('routingNumber')}
            hint={`${ROUTING_NUMBER_DIGITS} digits (ABA), for another bank`}
          />
          <SelectField label="Account type" name="accountType" required value={draft.accountType} onChange={set('accountType')}>
            <option value="">Choose…</option>
            <option value="savings">Savings</option>
            <option value="checking">Checking</option>
          </SelectField>
          <div className="recipient-field">
            <TextField
              label="Recipient"
              name="to"
              readOnly
              value={to}
              placeholder={lookup.kind === 'idle' ? 'Filled in from the account number' : ''}
              error={lookup.kind === 'notFound' ? 'Account not found' : undefined}
            />
            {lookup.kind === 'searching' ? (
              <span className="recipient-searching">
                <Spinner size="small" label="Looking up the account" /> <span aria-hidden="true">Looking up the account…</span>
              </span>
            ) : null}
          </div>
          <TextField label="Description" name="description" autoComplete="off" value={draft.description} onChange={set('description')} />
        </div>
        {lookup.kind === 'failed' ? <Alert kind="error">{lookup.message}</Alert> : null}
      </fieldset>
      {children}
      <div className="form-actions">
        <Button type="submit">Next</Button>
      </div>
    </form>
  );
}
