import type { AuditEvent, FieldChange } from './auditTypes';

const pad = (n: number) => String(n).padStart(2, '0');

/** A Date as the value of an <input type="datetime-local" step="1"> (local time, seconds). */
export function toLocalInputValue(date: Date): string {
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`;
}

/** The ISO instant a datetime-local value means (read as local time), or undefined when it is not a date. */
export function fromLocalInputValue(value: string): string | undefined {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?$/.test(value)) return undefined;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
}

const preciseFormat = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'medium' });

/** Date and time to the second (auditors compare events that are seconds apart). */
export function formatInstant(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : preciseFormat.format(date);
}

/** "admin 3f2a…" — who did it, short. */
export function actorLabel(actor: { id: string | null; role: string | null }): string {
  if (!actor.id && !actor.role) return 'unknown';
  if (actor.role === 'system' || !actor.id) return actor.role ?? 'unknown';
  return `${actor.role ?? 'user'} ${actor.id.slice(0, 8)}`;
}

/** The event types whose names say little on their own (a standing order's occurrences), in words. */
const EVENT_TYPE_LABELS: Readonly<Record<string, string>> = {
  StandingOrderCreated: 'Standing order created',
  StandingOrderPaused: 'Standing order paused',
  StandingOrderResumed: 'Standing order resumed',
  StandingOrderCancelled: 'Standing order cancelled',
  StandingOrderSuspended: 'Standing order suspended',
  OccurrencePaid: 'Standing order payment made',
  OccurrenceFailed: 'Standing order payment failed',
  OccurrenceMissed: 'Standing order payment missed',
};

/** An event type as the timeline shows it: in words where the name alone is unclear, else the type itself. */
export function eventTypeLabel(type: string): string {
  return EVENT_TYPE_LABELS[type] ?? type;
}

const usd = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });

/** A before/after value for people. Balance fields are dollars; secrets arrive masked. */
export function formatChangeValue(change: FieldChange, value: FieldChange['before']): string {
  if (value === null) return '—';
  if ((change.field === 'savings' || change.field === 'checking') && typeof value === 'number') return usd.format(value);
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  return String(value);
}

export interface CustomerIdentity {
  firstName: string;
  lastName: string;
  email: string;
  accountNumber: string;
  closed: boolean;
}

/** Who the customer is, as the events say (registration, then profile and account-number changes). */
export function identityFromEvents(events: readonly AuditEvent[], userId: string): CustomerIdentity | undefined {
  let identity: CustomerIdentity | undefined;
  const own = `customer-${userId}`;
  for (const event of events) {
    if (event.stream !== own) continue;
    const data = event.data;
    if (event.type === 'CustomerRegistered') {
      identity = {
        firstName: String(data.firstName ?? ''),
        lastName: String(data.lastName ?? ''),
        email: String(data.email ?? ''),
        accountNumber: String(data.accountNumber ?? ''),
        closed: false,
      };
    } else if (identity && event.type === 'ProfileChanged') {
      const after = (data.after ?? {}) as Partial<Record<'firstName' | 'lastName' | 'email', unknown>>;
      identity = {
        ...identity,
        ...(typeof after.firstName === 'string' ? { firstName: after.firstName } : {}),
        ...(typeof after.lastName === 'string' ? { lastName: after.lastName } : {}),
        ...(typeof after.email === 'string' ? { email: after.email } : {}),
      };
    } else if (identity && event.type === 'AccountNumberChanged' && typeof data.next === 'string') {
      identity = { ...identity, accountNumber: data.next };
    } else if (identity && event.type === 'CustomerClosed') {
      identity = { ...identity, closed: true };
    }
  }
  return identity;
}
