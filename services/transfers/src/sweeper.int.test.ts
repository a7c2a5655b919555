import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deterministicId, toNewEvents } from '@bank/commands';
import { streams, type TransferRequest } from '@bank/domain';
import { migrateReadModels, startProjector, type ProjectorHandle } from '@bank/projector';
import { createTransferFixture, waitUntil, type TestCustomer, type TransferFixture } from '@bank/testkit';
import { sweepTransfers } from './sweeper';
import { startTransferProcess, type TransferProcessHandle } from './transferProcess';

/**
 * Transfers whose record was begun the way the request path once wrote it (TransferRequested first, then a debit
 * without the intent): the transfer process finishes those whose payer was debited; the sweeper abandons those whose
 * payer never was.
 */
let fx: TransferFixture;
let projector: ProjectorHandle;
let transferProcess: TransferProcessHandle;

beforeAll(async () => {
  fx = await createTransferFixture('transfer_sweeper');
  await migrateReadModels(fx.pool);
  projector = startProjector({ pool: fx.pool, store: fx.store });
  await projector.ready;
  transferProcess = startTransferProcess({
    store: fx.store,
    commands: fx.commands,
    pool: fx.pool,
  });
  await transferProcess.ready;
});

afterAll(async () => {
  await transferProcess?.stop();
  await projector?.stop();
  await fx?.close();
});

function oldStyleRequest(payer: TestCustomer, payee: TestCustomer, requestedAt: Date): TransferRequest {
  const transferId = randomUUID();
  return {
    transferId,
    payerId: payer.userId,
    from: 'savings',
    amountCents: 10_00,
    accountNumber: payee.accountNumber,
    bankName: 'Summit Bank',
    routingNumber: '021000021',
    accountType: 'savings',
    recipientName: 'Payee',
    description: 'Old style',
    internal: true,
    payeeId: payee.userId,
    requestedAt: requestedAt.toISOString(),
    debitTransactionId: deterministicId(`${transferId}:debit`),
    creditTransactionId: deterministicId(`${transferId}:credit`),
    refundTransactionId: deterministicId(`${transferId}:refund`),
  };
}

async function appendRequested(request: TransferRequest): Promise<void> {
  const stream = streams.transfer(request.transferId);
  await fx.store.append(stream, toNewEvents(stream, [{ type: 'TransferRequested', data: request }], { revision: undefined, lastHash: null }, { metadata: { actorRole: 'customer' } }, new Date()), 'no_stream');
}

async function appendOldDebit(request: TransferRequest): Promise<void> {
  const stream = streams.account(request.payerId);
  const existing = await fx.store.readStream(stream);
  const last = existing.at(-1)!;
  await fx.store.append(
    stream,
    toNewEvents(
      stream,
      [
        {
          type: 'AccountDebited',
          data: {
            transactionId: request.debitTransactionId,
            account: 'savings',
            amountCents: request.amountCents,
            direction: 'debit',
            description: request.description,
            transferId: request.transferId,
            status: 'pending',
            occurredAt: request.requestedAt,
            balanceAfterCents: 90_00,
          },
        },
      ],
      { revision: last.revision, lastHash: String(last.metadata.hash) },
      { metadata: { actorRole: 'customer' } },
      new Date(),
    ),
    last.revision,
  );
}

describe('records begun the old way', () => {
  it('a debit without the intent: the process reads the request from the record and finishes the transfer', async () => {
    const payer = await fx.openCustomer({ savingsCents: 100_00 });
    const payee = await fx.openCustomer();
    const request = oldStyleRequest(payer, payee, new Date());
    await appendRequested(request);
    await appendOldDebit(request);
    await waitUntil(async () => (await fx.transfer(request.transferId)).phase === 'credited', { what: 'the credit' });
    expect(await fx.transferEvents(request.transferId)).toEqual(['TransferRequested', 'TransferDebited', 'TransferCredited']);
    expect(await fx.balances(payee.userId)).toEqual({ savings: 10_00, checking: 0 });
    expect((await fx.history(payer.userId)).transactions.get(request.debitTransactionId)?.status).toBe('completed');
  });

  it('a request never debited: the sweeper abandons it once it is old enough, and nothing moves', async () => {
    const payer = await fx.openCustomer({ savingsCents: 100_00 });
    const payee = await fx.openCustomer();
    const recent = oldStyleRequest(payer, payee, new Date());
    const old = oldStyleRequest(payer, payee, new Date(Date.now() - 10 * 60_000));
    await appendRequested(recent);
    await appendRequested(old);
    await waitUntil(async () => {
      const { rows } = await fx.pool.query('SELECT 1 FROM rm.transfers WHERE id = ANY($1::uuid[])', [[recent.transferId, old.transferId]]);
      return rows.length === 2;
    }, { what: 'the read model' });
    // Candidates are those requested more than abandonAfterMs ago, by their requested_at.
    await fx.pool.query('UPDATE rm.transfers SET requested_at = $2 WHERE id = $1', [old.transferId, old.requestedAt]);
    const report = await sweepTransfers({
      pool: fx.pool,
      commands: fx.commands,
      abandonAfterMs: 60_000,
    });
    expect(report.actions).toContainEqual({ transferId: old.transferId, action: 'abandoned' });
    expect(report.actions.map((a) => a.transferId)).not.toContain(recent.transferId);
    expect(await fx.transferEvents(old.transferId)).toEqual(['TransferRequested', 'TransferFailed']);
    expect(await fx.transferEvents(recent.transferId)).toEqual(['TransferRequested']);
    expect(await fx.balances(payer.userId)).toEqual({ savings: 100_00, checking: 0 });
  });
});
