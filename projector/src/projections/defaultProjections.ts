import { accountsProjection } from './accountsProjection';
import { achProjection } from './achProjection';
import { cardRequestsProjection } from './cardRequestsProjection';
import { directoryProjection } from './directoryProjection';
import { interestProjection } from './interestProjection';
import { ledgerProjection } from './ledgerProjection';
import type { Projection } from './projection';
import { staffAuditLogProjection } from './staffAuditLogProjection';
import { standingOrdersProjection } from './standingOrdersProjection';
import { transactionsProjection } from './transactionsProjection';
import { transfersProjection } from './transfersProjection';
import { usersProjection } from './usersProjection';

/** Every projection of the read-model schema, in the order they run for each event. */
export const defaultProjections: readonly Projection[] = [
  usersProjection,
  accountsProjection,
  transactionsProjection,
  transfersProjection,
  directoryProjection,
  cardRequestsProjection,
  staffAuditLogProjection,
  standingOrdersProjection,
  ledgerProjection,
  interestProjection,
  achProjection,
];
