import { useMemo, useState } from 'react';
import { Button } from '../../components/Button';
import { EmptyState } from '../../components/EmptyState';
import type { AuditEvent } from './auditTypes';
import { actorLabel, eventTypeLabel, formatChangeValue, formatInstant } from './auditFormat';

const PAGE = 50;

export interface TimelineProps {
  events: readonly AuditEvent[];
  /** "Balances at this moment" on an event. */
  onShowBalances?: (event: AuditEvent) => void;
  /** The server holds later events than `events` (a long history comes in pages): "Show more events" fetches them. */
  more?: { readonly loading: boolean; load(): void };
}

/** The customer's events, oldest first: when, who, what, and for every edit the values before and after. */
export function Timeline({ events, onShowBalances, more }: TimelineProps) {
  const [staffOnly, setStaffOnly] = useState(false);
  const [type, setType] = useState('');
  const [shown, setShown] = useState(PAGE);
  const types = useMemo(() => [...new Set(events.map((event) => event.type))].sort(), [events]);
  const visible = events.filter((event) => (!staffOnly || event.staff) && (!type || event.type === type));

  return (
    <div className="audit-timeline">
      <div className="audit-filters" role="group" aria-label="Filter the timeline">
        <label className="audit-check">
          <input
            type="checkbox"
            checked={staffOnly}
            onChange={(event) => {
              setStaffOnly(event.target.checked);
              setShown(PAGE);
            }}
          />
          Staff actions only
        </label>
        <label className="audit-inline-field">
          <span>Event type</span>
          <select
            value={type}
            onChange={(event) => {
              setType(event.target.value);
              setShown(PAGE);
            }}
          >
            <option value="">All types</option>
            {types.map((name) => (
              <option key={name} value={name}>
                {eventTypeLabel(name)}
              </option>
            ))}
          </select>
        </label>
        <span className="audit-count" aria-live="polite">
          {visible.length} of {events.length} events
        </span>
      </div>
      {visible.length === 0 ? (
        <EmptyState title="No events match these filters." />
      ) : (
        <ol className="audit-events">
          {visible.slice(0, shown).map((event) => (
            <li key={event.id + event.stream} className={`audit-event${event.staff ? ' audit-event-staff' : ''}`}>
              <div className="audit-event-head">
                <time dateTime={event.time}>{formatInstant(event.time)}</time>
                <span className="audit-event-type" title={event.type}>
                  {eventTypeLabel(event.type)}
                </span>
                <span className={`audit-actor audit-actor-${event.actor.role ?? 'unknown'}`} title={event.actor.id ?? undefined}>
                  {actorLabel(event.actor)}
                </span>
              </div>
              <p className="audit-event-summary">{event.summary}</p>
              {event.changes.length > 0 ? (
                <table className="audit-changes">
                  <caption className="visually-hidden">Values before and after this event</caption>
                  <thead>
                    <tr>
                      <th scope="col">Field</th>
                      <th scope="col">Before</th>
                      <th scope="col">After</th>
                    </tr>
                  </thead>
                  <tbody>
                    {event.changes.map((change) => (
                      <tr key={change.field}>
                        <th scope="row">{change.field}</th>
                        <td>{formatChangeValue(change, change.before)}</td>
                        <td>{formatChangeValue(change, change.after)}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              ) : null}
              <div className="audit-event-meta">
                <span>
                  {event.stream} #{event.revision}
                </span>
                <span>position {event.position}</span>
                {onShowBalances ? (
                  <Button variant="link" onClick={() => onShowBalances(event)}>
                    Balances at this moment
                  </Button>
                ) : null}
              </div>
            </li>
          ))}
        </ol>
      )}
      {visible.length > shown ? (
        <Button variant="secondary" onClick={() => setShown((n) => n + PAGE)}>
          Show more ({visible.length - shown} left)
        </Button>
      ) : more ? (
        // Everything loaded is shown: the next events come from the server, and show as they arrive.
        <Button
          variant="secondary"
          loading={more.loading}
          onClick={() => {
            setShown((n) => n + PAGE);
            more.load();
          }}
        >
          Show more events
        </Button>
      ) : null}
    </div>
  );
}
