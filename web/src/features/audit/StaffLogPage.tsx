import { useId, useState, type FormEvent } from 'react';
import { Link, useSearchParams } from 'react-router';
import { Alert } from '../../components/Alert';
import { Button } from '../../components/Button';
import { EmptyState } from '../../components/EmptyState';
import { QueryPager } from '../../components/Pager';
import { LoadingBlock } from '../../components/Spinner';
import { useCursorTrail } from '../../lib/api/paging';
import { errorMessage } from '../../lib/api/apiError';
import { useStaffLog } from './auditApi';
import type { StaffLogEntry, StaffLogFilters } from './auditTypes';
import { actorLabel, formatInstant, fromLocalInputValue, toLocalInputValue } from './auditFormat';

function describe(value: unknown): string {
  if (value === null || value === undefined) return '—';
  if (typeof value !== 'object') return String(value);
  const entries = Object.entries(value as Record<string, unknown>);
  if (entries.length === 0) return '—';
  return entries.map(([key, item]) => `${key}: ${typeof item === 'object' && item !== null ? JSON.stringify(item) : String(item)}`).join(', ');
}

function LogRow({ entry }: { entry: StaffLogEntry }) {
  return (
    <tr>
      <td data-label="When">
        <time dateTime={entry.time}>{formatInstant(entry.time)}</time>
      </td>
      <td data-label="Who" title={entry.actor.id ?? undefined}>
        {entry.actor.email ?? actorLabel(entry.actor)}
      </td>
      <td data-label="Action">
        <span className="audit-event-type">{entry.action}</span>
        {entry.summary ? <div className="audit-muted">{entry.summary}</div> : null}
      </td>
      <td data-label="Customer">{entry.userId ? <Link to={`/audit/users/${entry.userId}`}>{entry.userId.slice(0, 8)}</Link> : '—'}</td>
      <td data-label="Before">{describe(entry.before)}</td>
      <td data-label="After">{describe(entry.after)}</td>
    </tr>
  );
}

const FILTERS = ['actor', 'type', 'from', 'to'] as const;

/**
 * /audit/log — staff actions, newest first, filtered by actor, action type and period (kept in the URL), a page at a
 * time with Previous / Next (new filters start at the first page).
 */
export function StaffLogPage() {
  const [params, setParams] = useSearchParams();
  const filters: StaffLogFilters = Object.fromEntries(FILTERS.map((key) => [key, params.get(key) ?? undefined]).filter(([, v]) => v));
  const trail = useCursorTrail(JSON.stringify(filters));
  const log = useStaffLog(filters, trail.cursor);
  const entries = log.data?.data;
  const ids = { actor: useId(), type: useId(), from: useId(), to: useId() };
  const [draft, setDraft] = useState({
    actor: filters.actor ?? '',
    type: filters.type ?? '',
    from: filters.from ? toLocalInputValue(new Date(filters.from)) : '',
    to: filters.to ? toLocalInputValue(new Date(filters.to)) : '',
  });

  const apply = (event: FormEvent) => {
    event.preventDefault();
    const next: Record<string, string> = {};
    if (draft.actor.trim()) next.actor = draft.actor.trim();
    if (draft.type.trim()) next.type = draft.type.trim();
    const from = fromLocalInputValue(draft.from);
    const to = fromLocalInputValue(draft.to);
    if (from) next.from = from;
    if (to) next.to = to;
    setParams(next);
  };

  return (
    <section className="audit-page">
      <h1>Staff actions</h1>
      <form className="audit-log-filters" onSubmit={apply} aria-label="Filter staff actions">
        <div className="field">
          <label htmlFor={ids.actor}>Staff member (id or e-mail)</label>
          <input id={ids.actor} value={draft.actor} onChange={(e) => setDraft({ ...draft, actor: e.target.value })} />
        </div>
        <div className="field">
          <label htmlFor={ids.type}>Action</label>
          <input id={ids.type} value={draft.type} placeholder="e.g. BalanceAdjusted" onChange={(e) => setDraft({ ...draft, type: e.target.value })} />
        </div>
        <div className="field">
          <label htmlFor={ids.from}>From</label>
          <input id={ids.from} type="datetime-local" step={1} value={draft.from} onChange={(e) => setDraft({ ...draft, from: e.target.value })} />
        </div>
        <div className="field">
          <label htmlFor={ids.to}>To</label>
          <input id={ids.to} type="datetime-local" step={1} value={draft.to} onChange={(e) => setDraft({ ...draft, to: e.target.value })} />
        </div>
        <div className="audit-log-actions">
          <Button type="submit">Apply filters</Button>
          <Button
            variant="secondary"
            onClick={() => {
              setDraft({ actor: '', type: '', from: '', to: '' });
              setParams({});
            }}
          >
            Clear
          </Button>
        </div>
      </form>
      {log.isPending ? (
        <LoadingBlock label="Loading the staff log…" />
      ) : log.isError ? (
        <Alert kind="error">{errorMessage(log.error)}</Alert>
      ) : entries === undefined || (entries.length === 0 && !trail.hasPrevious) ? (
        <EmptyState title="No staff actions match these filters." />
      ) : (
        <div className="audit-table-wrap" aria-busy={log.isFetching || undefined}>
          <table className="audit-table audit-log-table">
            <caption>{entries.length} staff actions, newest first</caption>
            <thead>
              <tr>
                <th scope="col">When</th>
                <th scope="col">Who</th>
                <th scope="col">Action</th>
                <th scope="col">Customer</th>
                <th scope="col">Before</th>
                <th scope="col">After</th>
              </tr>
            </thead>
            <tbody>
              {entries.map((entry) => (
                <LogRow key={entry._id} entry={entry} />
              ))}
            </tbody>
          </table>
        </div>
      )}
      <QueryPager label="Staff log" trail={trail} query={log} />
    </section>
  );
}
