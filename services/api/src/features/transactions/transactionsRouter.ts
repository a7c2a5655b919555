import { randomUUID } from 'node:crypto';
import { deterministicId, handleCommand, loadStream } from '@bank/core';
import {
  adminTransactionInput,
  centsToDollars,
  decideAccount,
  evolveAccount,
  evolveTransfer,
  initialAccountState,
  initialTransferState,
  isDomainError,
  streams,
  transferInput,
  type AccountEvent,
  type AccountState,
  type TransferEvent,
  type TransferState,
} from '@bank/domain';
import type { Position } from '@bank/eventstore';
import {
  createTransferQueues,
  ensureTransferJob,
  faultHookFromSpec,
  parseWorkerSettings,
  requestTransfer,
  TransferRequestExpiredError,
  type FaultHook,
  type TransferQueues,
} from '@bank/worker';
import { Router, type Request, type Response } from 'express';
import type { AppDeps } from '../../appDeps';
import { authOf } from '../../auth/authContext';
import { verifySecret } from '../../auth/passwords';
import { createPinAttemptLimiter } from '../../auth/pinAttemptLimiter';
import { requireAuth } from '../../auth/requireAuth';
import { requireRole } from '../../auth/requireRole';
import type { FailureLimiter } from '../../http/rateLimiter';
import { invalidField, NotFoundError, ServiceUnavailableError } from '../../http/httpErrors';
import { requestIdOf } from '../../http/requestId';
import { latestPosition, sendCommandResult } from '../../http/sendCommandResult';
import { findTransaction, listTransactions, userExists, type Cursor, type TransactionDto } from './transactionQueries';

export interface TransactionsRouterOptions {
  /** Where transfer jobs are queued; by default queues on deps.redis under REDIS_PREFIX. */
  readonly queues?: TransferQueues;
  /** How long POST /transfer waits for an internal transfer's payee credit to reach the read model (default 5000). */
  readonly creditWaitMs?: number;
  /** The API appends no payer debit later than this after the request (default TRANSFER_ABANDON_AFTER_MS / 2). */
  readonly debitWindowMs?: number;
  /** Wrong-pin counting (default: the API's createPinAttemptLimiter, RATE_LIMIT_PIN_*). */
  readonly pinLimiter?: FailureLimiter;
  /** Test-only fault injection (WORKER_FAULT's api-* points by default). */
  readonly fault?: FaultHook;
}

export const TRANSFER_SUCCESSFUL_MESSAGE = 'Transfer Successful';
export const TRANSACTION_ADDED_MESSAGE = 'Transaction added successfully';
export const TRANSACTION_REVERSED_MESSAGE = 'Transaction reversed';
export const RECENT_TRANSACTIONS = 5;
export const DEFAULT_PAGE = 50;
export const MAX_PAGE = 500;
export const DEFAULT_CREDIT_WAIT_MS = 5000;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const ISO_DATE = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?)?$/;

function queryText(req: Request, name: string): string | undefined {
  const value = req.query[name];
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw invalidField(name, `${name} must be given once`);
  return value.trim() === '' ? undefined : value.trim();
}

function parseLimit(req: Request, fallback: number): number {
  const text = queryText(req, 'limit');
  if (text === undefined) return fallback;
  if (!/^\d+$/.test(text) || Number(text) < 1 || Number(text) > MAX_PAGE) throw invalidField('limit', `limit must be a whole number from 1 to ${MAX_PAGE}`);
  return Number(text);
}

/** `before`: a transaction id (continue after it) or an ISO-8601 date (strictly older than it). */
function parseCursor(req: Request): Cursor | undefined {
  const text = queryText(req, 'before');
  if (text === undefined) return undefined;
  if (UUID.test(text)) return { kind: 'transaction', id: text.toLowerCase() };
  const date = ISO_DATE.test(text) ? new Date(text) : undefined;
  if (!date || Number.isNaN(date.getTime())) throw invalidField('before', 'before must be a transaction id or an ISO-8601 date');
  return { kind: 'date', date };
}

function uuidParam(req: Request, name: string, notFound: string): string {
  const value = req.params[name];
  if (typeof value !== 'string' || !UUID.test(value)) throw new NotFoundError(notFound);
  return value.toLowerCase();
}

function idempotencyKeyOf(req: Request): string | undefined {
  const key = req.get('Idempotency-Key')?.trim();
  return key ? key.slice(0, 255) : undefined;
}

async function page(deps: AppDeps, req: Request, options: { userId?: string; limit: number }): Promise<TransactionDto[]> {
  const before = parseCursor(req);
  const rows = await listTransactions(deps.pool, { ...options, ...(before ? { before } : {}) });
  if (!rows) throw invalidField('before', 'before names no transaction of this list');
  return rows;
}

/**
 * A transaction as the contract shows it: from the read model, else (the projector is late) from the account
 * stream, so a command's answer never lacks it.
 */
async function transactionNow(deps: AppDeps, userId: string, transactionId: string): Promise<TransactionDto> {
  const row = await findTransaction(deps.pool, transactionId);
  if (row) {
    const { userId: _userId, ...dto } = row;
    return dto;
  }
  const account = await loadStream<AccountState, AccountEvent>(deps.store, streams.account(userId), evolveAccount, initialAccountState);
  const record = account.state.status === 'unopened' ? undefined : account.state.transactions[transactionId];
  if (!record) throw new Error(`Transaction ${transactionId} of ${userId} not found`);
  return {
    _id: record.transactionId,
    amount: centsToDollars(record.amountCents),
    transactionType: record.direction,
    date: new Date(record.occurredAt).toISOString(),
    description: record.description,
    account: record.account,
    status: record.reversedBy ? 'reversed' : record.status,
    balanceAfter: centsToDollars(record.balanceAfterCents),
    ...(record.transferId ? { transferId: record.transferId } : {}),
  };
}

const SETTLED_PHASES: ReadonlySet<string> = new Set(['credited', 'failed', 'refunded', 'settled']);

/**
 * Waits (polling the transfer stream, at most `timeoutMs`) until the worker has credited the payee (or failed the
 * transfer); returns the position of the transfer's last event then, for the projector wait.
 */
async function waitForCredit(deps: AppDeps, transferId: string, timeoutMs: number): Promise<Position | undefined> {
  const deadline = Date.now() + timeoutMs;
  let delay = 10;
  for (;;) {
    const stream = await loadStream<TransferState, TransferEvent>(deps.store, streams.transfer(transferId), evolveTransfer, initialTransferState);
    if (SETTLED_PHASES.has(stream.state.phase) || Date.now() >= deadline) return stream.events.at(-1)?.position;
    await new Promise((resolve) => setTimeout(resolve, Math.min(delay, Math.max(0, deadline - Date.now()))));
    delay = Math.min(delay * 2, 100);
  }
}

/** Queues on the app's Redis connection, created at the first transfer. */
function lazyQueues(deps: AppDeps, given: TransferQueues | undefined): () => TransferQueues {
  let queues = given;
  return () => (queues ??= createTransferQueues({ connection: deps.redis, prefix: deps.config.REDIS_PREFIX }));
}

function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${what} timed out after ${ms} ms`)), ms);
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}

/**
 * The transactions routes (API.md), mounted at /transaction. The router authenticates every request itself
 * (requireAuth), and the /admin routes require the admin role (403 for anyone else).
 *
 *   GET    /                  the signed-in user's 5 most recent transactions
 *   GET    /complete          ?limit (1-500, default 50) &before (a transaction id, or an ISO date): newest first
 *   POST   /transfer          the transfer (see docs/transfers.md)
 *   GET    /admin             every transaction, newest first (?limit, default 500, &before)
 *   GET    /admin/:userId     one user's transactions (?limit, default 500, &before)
 *   POST   /admin/:userId     a staff transaction {amount, transactionType, date, description, account?}
 *   DELETE /admin/:id         reverses transaction :id (TransactionReversed; the original stays)
 */
export function createTransactionsRouter(deps: AppDeps, options: TransactionsRouterOptions = {}): Router {
  const router = Router();
  const auth = requireAuth(deps);
  const admin = requireRole('admin');
  const pins = options.pinLimiter ?? createPinAttemptLimiter(deps);
  const queues = lazyQueues(deps, options.queues);
  const settings = parseWorkerSettings(process.env);
  const debitWindowMs = options.debitWindowMs ?? Math.floor(settings.TRANSFER_ABANDON_AFTER_MS / 2);
  const creditWaitMs = options.creditWaitMs ?? DEFAULT_CREDIT_WAIT_MS;
  const fault = options.fault ?? faultHookFromSpec(settings.WORKER_FAULT?.split(',').filter((f) => f.startsWith('api-')).join(','));
  const now = () => deps.now?.() ?? new Date();

  router.get('/', auth, async (req: Request, res: Response) => {
    const rows = await listTransactions(deps.pool, { userId: authOf(req).userId, limit: RECENT_TRANSACTIONS });
    res.json({ data: rows ?? [] });
  });

  router.get('/complete', auth, async (req: Request, res: Response) => {
    res.json({ data: await page(deps, req, { userId: authOf(req).userId, limit: parseLimit(req, DEFAULT_PAGE) }) });
  });

  router.post('/transfer', auth, async (req: Request, res: Response) => {
    const input = transferInput.parse(req.body ?? {});
    const { userId } = authOf(req);
    await pins.assertAllowed(userId);
    let result;
    try {
      result = await requestTransfer(
        {
          store: deps.store,
          pool: deps.pool,
          logger: deps.logger,
          comparePin: verifySecret,
          enqueue: (step, transferId, runAt) => withTimeout(ensureTransferJob(queues(), step, transferId, runAt ? { runAt } : {}), 2000, 'Queueing'),
          debitWindowMs,
          fault,
          now,
        },
        { userId, input, idempotencyKey: idempotencyKeyOf(req), requestId: requestIdOf(res) },
      );
    } catch (error) {
      if (isDomainError(error) && error.code === 'wrong_pin') await pins.recordFailure(userId);
      if (error instanceof TransferRequestExpiredError) throw new ServiceUnavailableError('The transfer could not be completed, please try again', 5);
      throw error;
    }
    const { request } = result;
    // Internal: answer once the payee's credit is in the read model (at most creditWaitMs), so a client reading the
    // recipient's balance right after sees it. The answer shows the debit's status at that moment.
    const position = request.internal ? latestPosition(result.position, await waitForCredit(deps, result.transferId, creditWaitMs)) : result.position;
    await sendCommandResult(res, 201, async () => ({ message: TRANSFER_SUCCESSFUL_MESSAGE, data: await transactionNow(deps, request.payerId, request.debitTransactionId) }), position);
  });

  router.get('/admin', auth, admin, async (req: Request, res: Response) => {
    res.json({ data: await page(deps, req, { limit: parseLimit(req, MAX_PAGE) }) });
  });

  router.get('/admin/:userId', auth, admin, async (req: Request, res: Response) => {
    const userId = uuidParam(req, 'userId', 'User not found');
    if (!(await userExists(deps.pool, userId))) throw new NotFoundError('User not found');
    res.json({ data: await page(deps, req, { userId, limit: parseLimit(req, MAX_PAGE) }) });
  });

  router.post('/admin/:userId', auth, admin, async (req: Request, res: Response) => {
    const userId = uuidParam(req, 'userId', 'User not found');
    const input = adminTransactionInput.parse(req.body ?? {});
    const adminId = authOf(req).userId;
    const key = idempotencyKeyOf(req);
    const transactionId = key ? deterministicId(`staff-transaction:${adminId}:${userId}:${key}`) : randomUUID();
    const result = await handleCommand<AccountState, AccountEvent>({
      store: deps.store,
      streamId: streams.account(userId),
      evolve: evolveAccount,
      initialState: initialAccountState,
      decide: (state) =>
        decideAccount(
          {
            type: 'PostStaffTransaction',
            transactionId,
            adminId,
            account: input.account,
            direction: input.direction,
            amountCents: input.amountCents,
            date: input.date,
            description: input.description,
            now: now().toISOString(),
          },
          state,
        ),
      context: {
        commandId: transactionId,
        metadata: { actorId: adminId, actorRole: 'admin', requestId: requestIdOf(res), schemaVersion: 1 },
      },
    });
    await sendCommandResult(res, 201, async () => ({ message: TRANSACTION_ADDED_MESSAGE, data: await transactionNow(deps, userId, transactionId) }), result.position);
  });

  router.delete('/admin/:id', auth, admin, async (req: Request, res: Response) => {
    const id = uuidParam(req, 'id', 'Transaction not found');
    const original = await findTransaction(deps.pool, id);
    if (!original) throw new NotFoundError('Transaction not found');
    const adminId = authOf(req).userId;
    const key = idempotencyKeyOf(req);
    const reversalId = key ? deterministicId(`reversal:${adminId}:${id}:${key}`) : randomUUID();
    const result = await handleCommand<AccountState, AccountEvent>({
      store: deps.store,
      streamId: streams.account(original.userId),
      evolve: evolveAccount,
      initialState: initialAccountState,
      decide: (state) => decideAccount({ type: 'ReverseTransaction', transactionId: reversalId, reversedTransactionId: id, adminId, now: now().toISOString() }, state),
      context: {
        commandId: reversalId,
        metadata: { actorId: adminId, actorRole: 'admin', requestId: requestIdOf(res), schemaVersion: 1 },
      },
    });
    await sendCommandResult(res, 200, async () => ({ message: TRANSACTION_REVERSED_MESSAGE, data: await transactionNow(deps, original.userId, reversalId) }), result.position);
  });

  return router;
}
