import { randomUUID } from 'node:crypto';
import { deterministicId } from '@bank/commands';
import { accountDecider, adminAccountInput, adminUserInput, customerDecider, streams, type AdjustBalances } from '@bank/domain';
import type { Position } from '@bank/eventstore';
import { hashPin } from '@bank/transfers';
import type { Request, Response } from 'express';
import { pathParam } from '../../http/pathParam';
import { readPoolOf, type AppDeps } from '../../appDeps';
import { businessDateOf } from '../businessDate/appBooks';
import { authOf } from '../../auth/authContext';
import { nowIso } from '../../commands/clock';
import { releaseAccountNumber, reserveAccountNumber } from '../../commands/reservations';
import { commandScope, loadState, runCommand, type CommandScope } from '../../commands/runCommand';
import { NotFoundError } from '../../http/httpErrors';
import { latestPosition, sendCommandResult } from '../../http/sendCommandResult';
import { changeCustomerProfile } from '../users/changeCustomerProfile';
import { userAfterCommand, USER_NOT_FOUND_MESSAGE } from '../users/currentUser';
import { invalidField } from '../../http/httpErrors';
import { decodeCursor, pageOf } from '../../http/keysetPage';
import { customerKey, listCustomers } from '../users/customerList';
import { findCustomerDetail, findUserByEmail, findUserById } from '../users/userQueries';
import { adminUserListQuery, ALL_CUSTOMERS_MAX, CUSTOMER_PAGE } from './adminUserListQuery';
import { customerTarget } from './customerTarget';

export const ACCOUNT_UPDATED_MESSAGE = 'Account updated successfully';
export const USER_UPDATED_MESSAGE = 'User updated successfully';
export const USER_DELETED_MESSAGE = 'User deleted successfully';

/**
 * GET /user/admin ?search&limit&cursor: the customers, newest first, as a paged list `{data, next}`. Without
 * `limit` and cursor it is the spec's "every customer" while they are at most ALL_CUSTOMERS_MAX (next: null),
 * and the first page of CUSTOMER_PAGE with a `next` cursor past that: told without a count (one row more is read).
 */
export function listUsers(deps: AppDeps) {
  return async (req: Request, res: Response): Promise<void> => {
    const query = adminUserListQuery.parse(req.query);
    const after = query.cursor === undefined ? undefined : decodeCursor(customerKey, query.cursor);
    if (after && query.offset > 0) throw invalidField('offset', 'offset cannot be combined with a cursor');
    const everyone = query.limit === undefined && !after;
    const limit = everyone ? ALL_CUSTOMERS_MAX : (query.limit ?? CUSTOMER_PAGE);
    const rows = await listCustomers(readPoolOf(deps), { search: query.search, limit: limit + 1, offset: query.offset, after });
    const page = pageOf(rows, everyone && rows.length > ALL_CUSTOMERS_MAX ? CUSTOMER_PAGE : limit, (row) => row.key);
    res.json({ data: page.rows.map((row) => row.user), next: page.next });
  };
}

/** GET /user/admin/:id: the user with their card requests. */
export function userById(deps: AppDeps) {
  return async (req: Request, res: Response): Promise<void> => {
    const user = await findCustomerDetail(readPoolOf(deps), await findUserById(readPoolOf(deps), pathParam(req, 'id')));
    if (!user) throw new NotFoundError(USER_NOT_FOUND_MESSAGE);
    res.json({ data: user });
  };
}

/** GET /user/admin/email/:email: the same, by e-mail (case-insensitive). */
export function userByEmail(deps: AppDeps) {
  return async (req: Request, res: Response): Promise<void> => {
    const user = await findCustomerDetail(readPoolOf(deps), await findUserByEmail(readPoolOf(deps), pathParam(req, 'email')));
    if (!user) throw new NotFoundError(USER_NOT_FOUND_MESSAGE);
    res.json({ data: user });
  };
}

/** Moves the customer to a new account number: reserve it (409 when taken), record the change, free the old one. */
async function changeAccountNumber(deps: AppDeps, scope: CommandScope, userId: string, previous: string, next: string): Promise<Position | undefined> {
  const reserved = await reserveAccountNumber(deps, scope, next, userId);
  let changed;
  try {
    changed = await runCommand(deps, scope, {
      decider: customerDecider,
      streamId: streams.customer(userId),
      command: { type: 'ChangeAccountNumber', adminId: scope.actor.id ?? '', accountNumber: next, now: nowIso(deps) },
    });
  } catch (error) {
    await releaseAccountNumber(deps, scope, next, userId).catch((release: unknown) => deps.logger.warn({ err: release }, 'Could not release an account number'));
    throw error;
  }
  const released = await releaseAccountNumber(deps, scope, previous, userId);
  return latestPosition(reserved, changed.position, released);
}

/**
 * PUT /user/admin/account/:id {savings, checking, number, reason?}: each balance that changes is set by one
 * BalanceAdjusted naming the admin (visible in the history, audited); a new number must be free (409).
 */
export function updateAccount(deps: AppDeps) {
  return async (req: Request, res: Response): Promise<void> => {
    const input = adminAccountInput.parse(req.body);
    const customer = await customerTarget(deps, pathParam(req, 'id'));
    const adminId = authOf(req).userId;
    const scope = commandScope(req, res);
    const accountStream = streams.account(customer.userId);
    const transactionIds = scope.commandId
      ? { savings: deterministicId(`${scope.commandId}:adjust:savings`), checking: deterministicId(`${scope.commandId}:adjust:checking`) }
      : { savings: randomUUID(), checking: randomUUID() };
    const adjust: AdjustBalances = {
      type: 'AdjustBalances',
      adminId,
      savingsCents: input.savingsCents,
      checkingCents: input.checkingCents,
      reason: input.reason,
      transactionIds,
      businessDate: await businessDateOf(deps),
      now: nowIso(deps),
    };
    accountDecider.decide(adjust, (await loadState(deps, accountDecider, accountStream)).state);
    const numberChanged =
      input.accountNumber === customer.accountNumber ? undefined : await changeAccountNumber(deps, scope, customer.userId, customer.accountNumber, input.accountNumber);
    const adjusted = await runCommand(deps, scope, { decider: accountDecider, streamId: accountStream, command: adjust });
    await sendCommandResult(
      res,
      200,
      async ({ stale }: { stale: boolean }) => ({ message: ACCOUNT_UPDATED_MESSAGE, data: await userAfterCommand(deps, customer.userId, stale) }),
      latestPosition(numberChanged, adjusted.position),
    );
  };
}

/**
 * PUT /user/admin/:id: profile (all six fields required: 422 'All fields are required'), verification status,
 * transfer block, sign-in disable and a new payment pin (6 digits, stored as a keyed hash: @bank/transfers' paymentPin), as one decision.
 */
export function updateUser(deps: AppDeps) {
  return async (req: Request, res: Response): Promise<void> => {
    const input = adminUserInput.parse(req.body);
    const customer = await customerTarget(deps, pathParam(req, 'id'));
    const adminId = authOf(req).userId;
    const { paymentPin, ...fields } = input;
    const pinHash = paymentPin === undefined ? undefined : hashPin(deps.pinKeys, customer.userId, paymentPin);
    const now = nowIso(deps);
    const position = await changeCustomerProfile(deps, commandScope(req, res), customer.userId, () => ({
      type: 'AdminEditCustomer',
      adminId,
      ...fields,
      pinHash,
      now,
    }));
    await sendCommandResult(
      res,
      200,
      async ({ stale }: { stale: boolean }) => ({ message: USER_UPDATED_MESSAGE, data: await userAfterCommand(deps, customer.userId, stale) }),
      position,
    );
  };
}

/** DELETE /user/admin/:id: the customer and the account are closed (gone from lists, no sign-in); history stays. */
export function closeUser(deps: AppDeps) {
  return async (req: Request, res: Response): Promise<void> => {
    const customer = await customerTarget(deps, pathParam(req, 'id'));
    const adminId = authOf(req).userId;
    const scope = commandScope(req, res);
    const now = nowIso(deps);
    const closed = await runCommand(deps, scope, {
      decider: customerDecider,
      streamId: streams.customer(customer.userId),
      command: { type: 'CloseCustomer', adminId, now },
    });
    const accountStream = streams.account(customer.userId);
    const account = await loadState(deps, accountDecider, accountStream);
    const accountClosed =
      account.state.status === 'unopened'
        ? undefined
        : await runCommand(deps, scope, { decider: accountDecider, streamId: accountStream, command: { type: 'CloseAccount', adminId, now } });
    await sendCommandResult(res, 200, { message: USER_DELETED_MESSAGE }, latestPosition(closed.position, accountClosed?.position));
  };
}
