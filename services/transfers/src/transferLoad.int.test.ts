import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCommandHandler, createPostgresSnapshotStore } from '@bank/commands';
import { isDomainError, transferInput } from '@bank/domain';
import { migrateReadModels, startProjector, verifyReadModels, type ProjectorHandle } from '@bank/projector';
import { createTransferFixture, waitUntil, type TestCustomer, type TransferFixture } from '@bank/testkit';
import { requestTransfer } from './requestTransfer';
import { startTransferProcess, type TransferProcessHandle } from './transferProcess';
import { seededRandom } from '@bank/platform';

/**
 * 200 transfers among 20 accounts at once, requested through two command handlers (two API processes), with two
 * transfer processes (one leads, one waits as a standby) and the projector running: money conserved, no balance
 * below zero, each leg once, the read models equal to the replay.
 */
const PIN = '123456';
let fx: TransferFixture;
let projector: ProjectorHandle;
const processes: TransferProcessHandle[] = [];

beforeAll(async () => {
  fx = await createTransferFixture('transfer_load');
  await migrateReadModels(fx.pool);
  projector = startProjector({ pool: fx.pool, store: fx.store });
  await projector.ready;
  for (let i = 0; i < 2; i += 1) {
    processes.push(
      startTransferProcess({
        store: fx.store,
        commands: createCommandHandler({ store: fx.store, snapshots: createPostgresSnapshotStore(fx.pool) }),
        pool: fx.pool,
        signals: fx.signals,
        leaderRetryMs: 100,
      }),
    );
  }
  await Promise.all(processes.map((p) => p.ready));
});

afterAll(async () => {
  await Promise.all(processes.map((p) => p.stop()));
  await projector?.stop();
  await fx?.close();
});

// The wait for every credit is 60 s of its own: the timeout leaves room for the load and the checks around it.
describe('many transfers among few accounts at once', { timeout: 180_000 }, () => {
  it('conserves money, never goes below zero, applies each leg once, and the read models equal the replay', async () => {
    const accounts: TestCustomer[] = [];
    for (let i = 0; i < 20; i += 1) accounts.push(await fx.openCustomer({ savingsCents: 100_00, pin: PIN }));
    const apis = [fx.commands, createCommandHandler({ store: fx.store, snapshots: createPostgresSnapshotStore(fx.pool) })];
    // A seeded generator (the low bits of a plain LCG repeat too soon to spread payers evenly).
    const next = seededRandom(7);
    const random = (n: number) => Math.floor(next() * n);
    const requests = Array.from({ length: 200 }, (_, i) => {
      const payer = accounts[random(accounts.length)]!;
      let payee = accounts[random(accounts.length)]!;
      if (payee === payer) payee = accounts[(accounts.indexOf(payer) + 1) % accounts.length]!;
      return { payer, payee, amount: 1 + random(5), commands: apis[i % 2]! };
    });
    const outcomes = await Promise.allSettled(
      requests.map(({ payer, payee, amount, commands }) =>
        requestTransfer(
          { commands, pool: fx.pool, signals: fx.signals, pinKeys: fx.pinKeys, creditWaitMs: 100 },
          { userId: payer.userId, input: transferInput.parse({ from: 'savings', amount, accountNumber: payee.accountNumber, accountType: 'savings', paymentPin: PIN }), idempotencyKey: randomUUID() },
        ),
      ),
    );
    for (const outcome of outcomes) {
      if (outcome.status === 'rejected' && !(isDomainError(outcome.reason) && outcome.reason.code === 'insufficient_balance')) throw outcome.reason;
    }
    const accepted = outcomes.flatMap((o) => (o.status === 'fulfilled' ? [o.value] : []));
    expect(accepted.length).toBeGreaterThan(180);

    await waitUntil(async () => {
      const phases = await Promise.all(accepted.map((a) => fx.transfer(a.transferId)));
      return phases.every((p) => p.phase === 'credited');
    }, { timeoutMs: 60_000, what: 'every transfer credited' });

    const balances = await Promise.all(accounts.map((a) => fx.balances(a.userId)));
    expect(balances.reduce((sum, b) => sum + b.savings + b.checking, 0)).toBe(20 * 100_00);
    for (const b of balances) expect(b.savings).toBeGreaterThanOrEqual(0);
    // Each credit once: as many payee credits as accepted transfers.
    const credits = (await Promise.all(accounts.map((a) => fx.store.readStream(`account-${a.userId}`))))
      .flat()
      .filter((e) => e.type === 'AccountCredited' && e.data.transferId !== undefined);
    expect(credits).toHaveLength(accepted.length);
    expect(new Set(credits.map((e) => String(e.data.transactionId))).size).toBe(accepted.length);

    const last = fx.lastPosition();
    if (last) await waitUntil(async () => (projector.status().position ?? '') >= `${last.commit.toString().padStart(20, '0')}:${last.prepare.toString().padStart(20, '0')}`, { what: 'the projector' });
    const verified = await verifyReadModels({ pool: fx.pool, store: fx.store });
    expect(verified.mismatches).toEqual([]);
    expect(verified.ok).toBe(true);
    expect(processes.map((p) => p.status().state).sort()).toEqual(['leader', 'standby']);
  });
});
