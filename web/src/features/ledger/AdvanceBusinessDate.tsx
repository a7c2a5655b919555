import { useState, type FormEvent } from 'react';
import { Alert } from '../../components/Alert';
import { Button } from '../../components/Button';
import { Dialog } from '../../components/Dialog';
import { TextField } from '../../components/Field';
import { errorMessage } from '../../lib/api/apiError';
import { useAdvanceBusinessDate } from './ledgerApi';

/** The contract's bounds of one advance. */
const MIN_DAYS = 1;
const MAX_DAYS = 366;

function daysOf(text: string): number | undefined {
  if (!/^\d{1,3}$/.test(text.trim())) return undefined;
  const days = Number(text.trim());
  return days >= MIN_DAYS && days <= MAX_DAYS ? days : undefined;
}

/**
 * Manual mode, admins: close the open business date and the following ones (POST /admin/business-date/advance),
 * after a confirmation, since a close cannot be undone.
 */
export function AdvanceBusinessDate({ businessDate }: { businessDate: string }) {
  const advance = useAdvanceBusinessDate();
  const [text, setText] = useState('1');
  const [confirming, setConfirming] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const days = daysOf(text);

  const ask = (event: FormEvent) => {
    event.preventDefault();
    advance.reset();
    if (days === undefined) {
      setProblem(`Days must be a whole number from ${MIN_DAYS} to ${MAX_DAYS}`);
      return;
    }
    setProblem(null);
    setConfirming(true);
  };

  const confirm = () => {
    if (days === undefined) return;
    advance.mutate(days, { onSettled: () => setConfirming(false) });
  };

  const closed = advance.data?.closed ?? [];
  return (
    <form className="ledger-advance" onSubmit={ask} noValidate aria-label="Advance the business date">
      <TextField
        label="Days to close"
        fieldClassName="ledger-days-field"
        type="number"
        inputMode="numeric"
        min={MIN_DAYS}
        max={MAX_DAYS}
        step={1}
        value={text}
        error={problem ?? undefined}
        onChange={(event) => setText(event.target.value)}
      />
      <Button type="submit" variant="secondary" loading={advance.isPending}>
        Advance the business date
      </Button>
      {advance.isError ? <Alert kind="error">{errorMessage(advance.error)}</Alert> : null}
      {advance.isSuccess ? (
        <Alert kind="success">
          {closed.length > 0 ? `Closed ${closed.join(', ')}. ` : ''}The business date is now {advance.data.businessDate}.
        </Alert>
      ) : null}
      <Dialog
        open={confirming}
        title={days === 1 ? `Close ${businessDate}?` : `Close ${days ?? ''} business days?`}
        confirmLabel={days === 1 ? 'Close the day' : 'Close the days'}
        busy={advance.isPending}
        onCancel={() => setConfirming(false)}
        onConfirm={confirm}
      >
        <p>
          The close of business runs for {businessDate}
          {days !== undefined && days > 1 ? ` and the ${days - 1} following ${days - 1 === 1 ? 'day' : 'days'}` : ''}: standing orders due, interest,
          then the ledger&apos;s day close. A closed day cannot be reopened.
        </p>
      </Dialog>
    </form>
  );
}
