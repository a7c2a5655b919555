import { maskSecrets, type BankEvent, type BankEventType } from '@bank/domain';
import { defineProjection, type ProjectedEvent, type ProjectionDb, type ProjectionHandlers } from './projection';

/** Event types that are always a staff action. */
const STAFF_EVENT_TYPES = [
  'VerificationStatusSet',
  'PaymentPinSet',
  'CustomerBlocked',
  'CustomerUnblocked',
  'CustomerDisabled',
  'CustomerEnabled',
  'AccountNumberChanged',
  'CustomerClosed',
  'AccountClosed',
  'BalanceAdjusted',
  'StaffTransactionPosted',
  'TransactionReversed',
  'BeneficiaryAdded',
  'BeneficiaryRemoved',
  'ContactMessageDeleted',
  'SecondFactorReset',
  'InterestRateScheduled',
] as const satisfies readonly BankEventType[];

/** Event types that are a staff action when someone else than the customer did them (`changedBy`). */
const SOMETIMES_STAFF_EVENT_TYPES = ['ProfileChanged', 'PasswordChanged'] as const satisfies readonly BankEventType[];

const STAFF_ROLES = new Set(['admin', 'auditor']);

function ownerOf(streamId: string): string | null {
  if (!streamId.startsWith('customer-') && !streamId.startsWith('account-')) return null;
  return streamId.slice(streamId.indexOf('-') + 1) || null;
}

function stringField(data: object, field: string): string | null {
  const value = (data as Record<string, unknown>)[field];
  return typeof value === 'string' ? value : null;
}

function targetIdOf(data: object): string | null {
  return stringField(data, 'transactionId') ?? stringField(data, 'beneficiaryId') ?? stringField(data, 'contactId');
}

function record(event: ProjectedEvent, db: ProjectionDb): void {
  const data = event.data as object;
  const target = ownerOf(event.streamId);
  const changedBy = stringField(data, 'changedBy');
  const metadataRole = typeof event.metadata.actorRole === 'string' ? event.metadata.actorRole : null;
  const staffByMetadata = metadataRole !== null && STAFF_ROLES.has(metadataRole);
  if ((SOMETIMES_STAFF_EVENT_TYPES as readonly string[]).includes(event.type) && !staffByMetadata && (changedBy === null || changedBy === target)) return;
  const actorId =
    (typeof event.metadata.actorId === 'string' ? event.metadata.actorId : null) ?? stringField(data, 'adminId') ?? stringField(data, 'actorId') ?? changedBy;
  // When the action was recorded: a staff transaction's `occurredAt` is the (possibly back-dated) date the admin
  // typed, so its `postedAt` comes first; then the command's time in the metadata.
  const recordedAt = typeof event.metadata.occurredAt === 'string' ? event.metadata.occurredAt : null;
  const at = stringField(data, 'postedAt') ?? recordedAt ?? stringField(data, 'occurredAt') ?? stringField(data, 'closedAt') ?? stringField(data, 'scheduledAt') ?? event.created.toISOString();
  db.insert('staff_audit_log', {
    id: event.id,
    actor_id: actorId,
    actor_role: staffByMetadata ? metadataRole : 'admin',
    type: event.type,
    target_user_id: target,
    target_id: targetIdOf(data),
    details: maskSecrets({ type: event.type, data: event.data } as BankEvent),
    at,
    stream_id: event.streamId,
  });
}

const handlers: Record<string, (event: ProjectedEvent, db: ProjectionDb) => void> = {};
for (const type of [...STAFF_EVENT_TYPES, ...SOMETIMES_STAFF_EVENT_TYPES]) handlers[type] = record;

/** rm.staff_audit_log: one row per staff action, keyed by the event id (its `position` column is the event's). */
export const staffAuditLogProjection = defineProjection({
  name: 'staff_audit_log',
  tables: { staff_audit_log: { positionColumn: 'position', keyAfterLoad: true } },
  handlers: handlers as ProjectionHandlers,
});
