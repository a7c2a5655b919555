import { useState, type FormEvent } from 'react';
import { Button } from '../../components/Button';
import { TextField } from '../../components/Field';
import { fromLocalInputValue, toLocalInputValue } from '../audit/auditFormat';

export interface AsOfFormProps {
  /** The instant shown (ISO), undefined for now. Give the form `key={at}` so that it follows the address. */
  readonly at: string | undefined;
  /** An ISO instant, or undefined for now. */
  readonly onChange: (at: string | undefined) => void;
}

/** The trial balance's date-time picker, in the viewer's local time to the second: empty means now. */
export function AsOfForm({ at, onChange }: AsOfFormProps) {
  const [draft, setDraft] = useState(at ? toLocalInputValue(new Date(at)) : '');
  const [problem, setProblem] = useState<string | null>(null);

  const show = (event: FormEvent) => {
    event.preventDefault();
    const instant = draft ? fromLocalInputValue(draft) : undefined;
    if (draft && !instant) {
      setProblem('Enter a date and time, or leave it empty for now');
      return;
    }
    setProblem(null);
    onChange(instant);
  };

  return (
    <form className="ledger-at-form" onSubmit={show} noValidate aria-label="Trial balance as of">
      <TextField
        label="As of (your local time)"
        fieldClassName="ledger-at-field"
        type="datetime-local"
        step={1}
        value={draft}
        hint="Empty: now. A past instant is replayed from the log."
        error={problem ?? undefined}
        onChange={(event) => setDraft(event.target.value)}
      />
      <div className="ledger-filter-actions">
        <Button type="submit">Show</Button>
        <Button
          variant="secondary"
          onClick={() => {
            setDraft('');
            setProblem(null);
            onChange(undefined);
          }}
        >
          Now
        </Button>
      </div>
    </form>
  );
}
