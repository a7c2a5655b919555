import { useId, useState, type FormEvent } from 'react';
import { Button } from '../../components/Button';
import type { LedgerEntryFilters } from './ledgerTypes';

export interface EntriesFiltersProps {
  readonly filters: LedgerEntryFilters;
  readonly onApply: (filters: LedgerEntryFilters) => void;
}

/** From and to (business dates, inclusive) and a customer id: the filters of an account's journal lines. */
export function EntriesFilters({ filters, onApply }: EntriesFiltersProps) {
  const ids = { from: useId(), to: useId(), customer: useId() };
  const [draft, setDraft] = useState({ from: filters.from ?? '', to: filters.to ?? '', customerId: filters.customerId ?? '' });

  const apply = (event: FormEvent) => {
    event.preventDefault();
    const next: LedgerEntryFilters = {};
    if (draft.from) next.from = draft.from;
    if (draft.to) next.to = draft.to;
    if (draft.customerId.trim()) next.customerId = draft.customerId.trim();
    onApply(next);
  };

  return (
    <form className="ledger-filters" onSubmit={apply} aria-label="Filter the journal lines">
      <div className="field">
        <label htmlFor={ids.from}>From (business date)</label>
        <input id={ids.from} type="date" value={draft.from} onChange={(event) => setDraft({ ...draft, from: event.target.value })} />
      </div>
      <div className="field">
        <label htmlFor={ids.to}>To (business date)</label>
        <input id={ids.to} type="date" value={draft.to} onChange={(event) => setDraft({ ...draft, to: event.target.value })} />
      </div>
      <div className="field">
        <label htmlFor={ids.customer}>Customer id</label>
        <input
          id={ids.customer}
          value={draft.customerId}
          autoComplete="off"
          spellCheck={false}
          onChange={(event) => setDraft({ ...draft, customerId: event.target.value })}
        />
      </div>
      <div className="ledger-filter-actions">
        <Button type="submit">Apply filters</Button>
        <Button
          variant="secondary"
          onClick={() => {
            setDraft({ from: '', to: '', customerId: '' });
            onApply({});
          }}
        >
          Clear
        </Button>
      </div>
    </form>
  );
}
