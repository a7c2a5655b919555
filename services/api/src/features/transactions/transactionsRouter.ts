import { randomUUID } from 'node:crypto';
import { commandEventId, deterministicId } from '@bank/commands';
import { accountDecider, adminTransactionInput, centsToDollars, isSameTransferRequest, streams, transferInput, type TransferInput } from '@bank/domain';
import { requestTransfer, transferRequestCommandId, type DebitData, type FaultHook, type PinAttemptGuard, type RepeatedTransfer, type TransferAnswer } from '@bank/transfers';
import { readEventById, type Position } from '@bank/eventstore';
import { Router, type Request, type Response } from 'express';
import { readPoolOf, type AppDeps } from '../../appDeps';
import { businessDateOf } from '../businessDate/appBooks';
import { authOf } from '../../auth/authContext';
import { createPinAttemptGuard } from '../../auth/pinAttemptLimiter';
import { requireAuth } from '../../auth/requireAuth';
import { requireRole } from '../../auth/requireRole';
import { nowIso } from '../../commands/clock';
import { commandScope, runCommand } from '../../commands/runCommand';
import { HttpError, invalidField, NotFoundError, ServiceUnavailableError } from '../../http/httpErrors';
import { DIFFERENT_REQUEST_MESSAGE, idempotencyKeyOfCommand, REPLAYED_HEADER } from '../../http/idempotency';
import { requestIdOf } from '../../http/requestId';
import { latestPosition, sendCommandResult } from '../../http/sendCommandResult';
import { transferKey } from './transferIdempotency';
import { pageOf, pageRequest, type Page, type PageSize } from '../../http/keysetPage';
import { queryText } from '../../http/queryParams';
import { findTransaction, listTransactionRows, listTransactions, transactionKey, userExists, type Cursor, type TransactionDto } from './transactionQueries';
import { isUuid } from '@bank/platform';

export interface TransactionsRouterOptions {
  /** Wrong-pin counting, before each comparison (default: the API's createPinAttemptGuard, RATE_LIMIT_PIN_*). */
  readonly pinAttempts?: PinAttemptGuard;
  /** Test-only fault injection (default: deps.transfers.afterDebitFault, TRANSFER_FAULT's 'after-debit' point). */
  readonly fault?: FaultHook;
}

export const TRANSFER_SUCCESSFUL_MESSAGE = 'Transfer Successful';
export const TRANSACTION_ADDED_MESSAGE = 'Transaction added successfully';
export const TRANSACTION_REVERSED_MESSAGE = 'Transaction reversed';
export const RECENT_TRANSACTIONS = 5;
export const DEFAULT_PAGE = 50;
export const MAX_PAGE = 500;

const ISO_DATE = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?)?$/;

/** `before`: a transaction id (continue after it) or an ISO-8601 date (strictly older than it). */
function parseCursor(req: Request): Cursor | undefined {
  const text = queryText(req, 'before');
  if (text === undefined) return undefined;
  if (isUuid(text)) return { kind: 'transaction', id: text.toLowerCase() };
  const date = ISO_DATE.test(text) ? new Date(text) : undefined;
  if (!date || Number.isNaN(date.getTime())) throw invalidField('before', 'before must be a transaction id or an ISO-8601 date');
  return { kind: 'date', date };
}

function uuidParam(req: Request, name: string, notFound: string): string {
  const value = req.params[name];
  if (typeof value !== 'string' || !isUuid(value)) throw new NotFoundError(notFound);
  return value.toLowerCase();
}

function idempotencyKeyOf(req: Request): string | undefined {
  const key = req.get('Idempotency-Key')?.trim();
  return key ? key.slice(0, 255) : undefined;
}

const CUSTOMER_PAGE: PageSize = { defaultLimit: DEFAULT_PAGE, maxLimit: MAX_PAGE };
const ADMIN_PAGE: PageSize = { defaultLimit: MAX_PAGE, maxLimit: MAX_PAGE };

/** One page `{data, next}`, after `?cursor` (a previous page's next) or the older `?before`. */
async function page(deps: AppDeps, req: Request, options: { userId?: string; size: PageSize }): Promise<Page<TransactionDto>> {
  const { limit, after } = pageRequest(req, transactionKey, options.size);
  const older = parseCursor(req);
  if (after && older) throw invalidField('before', 'before cannot be combined with a cursor');
  const before = after ? { kind: 'key' as const, ...after } : older;
  const rows = await listTransactionRows(readPoolOf(deps), { limit: limit + 1, ...(options.userId ? { userId: options.userId } : {}), ...(before ? { before } : {}) });
  if (!rows) throw invalidField('before', 'before names no transaction of this list');
  const paged = pageOf(rows, limit, (row) => row.key);
  return { data: paged.rows.map((row) => row.transaction), next: paged.next };
}

/** The data every money event carries: what a transaction shows. */
type MoneyData = Pick<DebitData, 'transactionId' | 'amountCents' | 'direction' | 'occurredAt' | 'description' | 'account' | 'status' | 'balanceAfterCents' | 'transferId'>;

/** A money event as the contract shows its transaction (the read model's row shows the same). */
function presentMoney(data: MoneyData, status: TransactionDto['status'] = data.status): TransactionDto {
  return {
    _id: data.transactionId,
    amount: centsToDollars(data.amountCents),
    transactionType: data.direction,
    date: new Date(data.occurredAt).toISOString(),
    description: data.description,
    account: data.account,
    status,
    balanceAfter: centsToDollars(data.balanceAfterCents),
    ...(data.transferId ? { transferId: data.transferId } : {}),
  };
}

/**
 * A transaction as the contract shows it: from the read model once the projector has it, else (the projector behind
 * the command's wait: X-Consistency-Stale) from the event the command decided. A retried command decided nothing and
 * the projector has not caught up: 503, try again.
 */
async function transactionNow(deps: AppDeps, transactionId: string, decided: readonly { readonly data: object }[]): Promise<TransactionDto> {
  const row = await findTransaction(deps.pool, transactionId);
  if (row) {
    const { userId: _userId, amountCents: _cents, ...dto } = row;
    return dto;
  }
  const event = decided.find((candidate) => (candidate.data as Partial<MoneyData>).transactionId === transactionId);
  if (event) return presentMoney(event.data as MoneyData);
  throw new ServiceUnavailableError('The transaction is recorded; its details are not readable yet, please try again', 1);
}

/** The payer's debit as the transfer's answer shows it: as decided, with its status now. */
function presentDebit(debit: DebitData, status: TransferAnswer['status']): TransactionDto {
  return presentMoney(debit, status);
}

/**
 * A repeated transfer request (its Idempotency-Key's debit is recorded; nothing was decided) with no remembered
 * answer: the first answer again, from the log. The debit's event is the transaction the first answer showed; its
 * status is what the first answer said — pending for a payment to another bank (answered at once), else the outcome
 * the account records (an internal transfer answered pending has a remembered answer and does not come here), or,
 * while the transfer process is still at it (a repeat racing the first request), the outcome waited for as the first
 * request waits. A request that differs from the recorded one is 422.
 */
async function sendRepeatedTransfer(deps: AppDeps, res: Response, userId: string, input: TransferInput, answer: TransferAnswer, repeated: RepeatedTransfer): Promise<void> {
  try {
    const stream = streams.account(userId);
    const event = await readEventById(deps.store, stream, commandEventId(transferRequestCommandId(answer.transferId), stream, 0));
    const debit = event?.type === 'AccountDebited' ? (event.data as DebitData) : undefined;
    if (!event || !debit) throw new ServiceUnavailableError('The transfer is recorded; its details are not readable yet, please try again', 1);
    if (!isSameTransferRequest(debit, input)) throw new HttpError(422, DIFFERENT_REQUEST_MESSAGE);
    let status: TransferAnswer['status'] = 'pending';
    let position: Position | undefined = event.position;
    if (debit.intent?.internal) {
      if (repeated.debitStatus !== 'pending') {
        status = repeated.debitStatus;
        // The outcome's events follow the debit: read the answer's effects at the log's head.
        position = latestPosition(position, await deps.store.headPosition());
      } else {
        const outcome = await repeated.outcome?.wait(deps.transfers.creditWaitMs);
        if (outcome) {
          status = outcome.status;
          position = outcome.position;
        }
      }
    }
    res.setHeader(REPLAYED_HEADER, 'true');
    await sendCommandResult(res, 201, { message: TRANSFER_SUCCESSFUL_MESSAGE, data: presentDebit(debit, status) }, position);
  } finally {
    repeated.outcome?.cancel();
  }
}

/**
 * The transactions routes (API.md), mounted at /transaction. The router authenticates every request itself
 * (requireAuth), and the /admin routes require the admin role (403 for anyone else).
 *
 *   GET    /                  the signed-in user's 5 most recent transactions
 *   GET    /complete          ?limit (1-500, default 50) &cursor (or &before: a transaction id, or an ISO date): newest first
 *   POST   /transfer          the transfer (see docs/transfers.md)
 *   GET    /admin             every transaction, newest first (?limit, default 500, &cursor or &before)
 *   GET    /admin/:userId     one user's transactions (?limit, default 500, &cursor or &before)
 * The three lists answer the paged shape {data, next} (http/keysetPage).
 *   POST   /admin/:userId     a staff transaction {amount, transactionType, date, description, account?}
 *   DELETE /admin/:id         reverses transaction :id (TransactionReversed; the original stays)
 */
export function createTransactionsRouter(deps: AppDeps, options: TransactionsRouterOptions = {}): Router {
  const router = Router();
  const auth = requireAuth(deps);
  const admin = requireRole('admin');
  const pinAttempts = options.pinAttempts ?? createPinAttemptGuard(deps);
  const fault = options.fault ?? deps.transfers.afterDebitFault;

  router.get('/', auth, async (req: Request, res: Response) => {
    const rows = await listTransactions(readPoolOf(deps), { userId: authOf(req).userId, limit: RECENT_TRANSACTIONS });
    res.json({ data: rows ?? [] });
  });

  router.get('/complete', auth, async (req: Request, res: Response) => {
    res.json(await page(deps, req, { userId: authOf(req).userId, size: CUSTOMER_PAGE }));
  });

  router.post('/transfer', auth, async (req: Request, res: Response) => {
    const { userId } = authOf(req);
    // The key is this route's own (transferIdempotency.ts); the general middleware leaves this route alone.
    const key = transferKey(deps, req, res, idempotencyKeyOfCommand(req), userId, pinAttempts);
    const input = transferInput.parse(req.body ?? {});
    let answer: TransferAnswer;
    try {
      answer = await requestTransfer(
        {
          commands: deps.commands,
          pool: deps.pool,
          signals: deps.signals,
          pinKeys: deps.pinKeys,
          ...(deps.verifyLegacyPin ? { verifyLegacyPin: deps.verifyLegacyPin } : {}),
          creditWaitMs: deps.transfers.creditWaitMs,
          pinAttempts: key ? key.pinAttempts : pinAttempts,
          fault,
          ...(deps.now ? { now: deps.now } : {}),
          businessDate: () => businessDateOf(deps),
        },
        {
          userId,
          input,
          idempotencyKey: key?.key,
          requestId: requestIdOf(res),
          ...(key ? { beforeDecision: () => key.beforeDecision(), keepRepeatOutcome: true } : {}),
        },
      );
    } catch (error) {
      if (key?.replayed(error, res)) return;
      throw error;
    }
    if (key && answer.repeated) {
      key.repeat(res);
      await sendRepeatedTransfer(deps, res, userId, input, answer, answer.repeated);
      return;
    }
    // The answer a repeat gives again from the log (see sendRepeatedTransfer) is not recorded; an internal transfer
    // answered pending is (a repeat would find it completed).
    if (key && (!answer.internal || answer.status !== 'pending')) key.derivable(res);
    // Internal: answered once the payee's credit is durable and the read models hold it (or, past the bound, pending).
    const { debit } = answer;
    await sendCommandResult(
      res,
      201,
      async () => ({ message: TRANSFER_SUCCESSFUL_MESSAGE, data: debit ? presentDebit(debit, answer.status) : await transactionNow(deps, answer.debitTransactionId, []) }),
      answer.position,
    );
  });

  router.get('/admin', auth, admin, async (req: Request, res: Response) => {
    res.json(await page(deps, req, { size: ADMIN_PAGE }));
  });

  router.get('/admin/:userId', auth, admin, async (req: Request, res: Response) => {
    const userId = uuidParam(req, 'userId', 'User not found');
    if (!(await userExists(readPoolOf(deps), userId))) throw new NotFoundError('User not found');
    res.json(await page(deps, req, { userId, size: ADMIN_PAGE }));
  });

  router.post('/admin/:userId', auth, admin, async (req: Request, res: Response) => {
    const userId = uuidParam(req, 'userId', 'User not found');
    const input = adminTransactionInput.parse(req.body ?? {});
    const adminId = authOf(req).userId;
    const key = idempotencyKeyOf(req);
    const transactionId = key ? deterministicId(`staff-transaction:${adminId}:${userId}:${key}`) : randomUUID();
    const result = await runCommand(deps, commandScope(req, res), {
      decider: accountDecider,
      streamId: streams.account(userId),
      command: {
        type: 'PostStaffTransaction',
        transactionId,
        adminId,
        account: input.account,
        direction: input.direction,
        amountCents: input.amountCents,
        date: input.date,
        description: input.description,
        reason: input.reason,
        businessDate: await businessDateOf(deps),
        now: nowIso(deps),
      },
    });
    await sendCommandResult(res, 201, async () => ({ message: TRANSACTION_ADDED_MESSAGE, data: await transactionNow(deps, transactionId, result.events) }), result.position);
  });

  router.delete('/admin/:id', auth, admin, async (req: Request, res: Response) => {
    const id = uuidParam(req, 'id', 'Transaction not found');
    const original = await findTransaction(deps.pool, id);
    if (!original) throw new NotFoundError('Transaction not found');
    const adminId = authOf(req).userId;
    const key = idempotencyKeyOf(req);
    const reversalId = key ? deterministicId(`reversal:${adminId}:${id}:${key}`) : randomUUID();
    const result = await runCommand(deps, commandScope(req, res), {
      decider: accountDecider,
      streamId: streams.account(original.userId),
      command: {
        type: 'ReverseTransaction',
        transactionId: reversalId,
        reversedTransactionId: id,
        // What the original moved, from the read model's copy of its (immutable) event; the account decides the rest.
        original: {
          account: original.account,
          direction: original.transactionType,
          amountCents: original.amountCents,
          description: original.description,
          transferId: original.transferId ?? null,
        },
        adminId,
        businessDate: await businessDateOf(deps),
        now: nowIso(deps),
      },
    });
    await sendCommandResult(res, 200, async () => ({ message: TRANSACTION_REVERSED_MESSAGE, data: await transactionNow(deps, reversalId, result.events) }), result.position);
  });

  return router;
}
