import { useMemo } from 'react';
import { SelectField, TextField } from '../../components/Field';
import { monthOptions, type StatementChoice } from './statementChoice';

export interface StatementPickerProps {
  readonly value: StatementChoice;
  readonly onChange: (choice: StatementChoice) => void;
  /** Offer a custom from–to range besides months (the portal does; the staff panel keeps to months). */
  readonly allowCustom?: boolean;
}

/** Account and period of a statement: a month (the last full one by default) or a custom range of days. */
export function StatementPicker({ value, onChange, allowCustom = true }: StatementPickerProps) {
  const months = useMemo(() => monthOptions(new Date()), []);
  const set = (change: Partial<StatementChoice>) => onChange({ ...value, ...change });
  const backwards = value.mode === 'custom' && value.from !== '' && value.to !== '' && value.from > value.to;
  return (
    <div className="statement-picker">
      <SelectField label="Account" value={value.account} onChange={(event) => set({ account: event.target.value === 'savings' ? 'savings' : 'checking' })}>
        <option value="checking">Checking</option>
        <option value="savings">Savings</option>
      </SelectField>
      {allowCustom ? (
        <fieldset className="statement-mode">
          <legend>Period</legend>
          <label>
            <input type="radio" name="statement-mode" checked={value.mode === 'month'} onChange={() => set({ mode: 'month' })} /> A month
          </label>
          <label>
            <input type="radio" name="statement-mode" checked={value.mode === 'custom'} onChange={() => set({ mode: 'custom' })} /> Custom dates
          </label>
        </fieldset>
      ) : null}
      {value.mode === 'month' ? (
        <SelectField label="Month" value={value.month} onChange={(event) => set({ month: event.target.value })}>
          {months.map((month) => (
            <option key={month.value} value={month.value}>
              {month.label}
            </option>
          ))}
        </SelectField>
      ) : (
        <>
          <TextField label="From" type="date" value={value.from} max={value.to || undefined} onChange={(event) => set({ from: event.target.value })} />
          <TextField
            label="To"
            type="date"
            value={value.to}
            min={value.from || undefined}
            error={backwards ? 'The end date must not be before the start date.' : undefined}
            onChange={(event) => set({ to: event.target.value })}
          />
        </>
      )}
    </div>
  );
}
