import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { customerDecider, streams, transferInput } from '@bank/domain';
import { migrateReadModels, startProjector } from '@bank/projector';
import { formatPosition } from '@bank/eventstore';
import { createLogger } from '@bank/platform';
import { createTransferFixture, waitUntil, type TransferFixture } from '@bank/testkit';
import { requestTransfer, startTransferProcess, type TransferProcessHandle } from '@bank/transfers';
import type { ParsedMail } from 'mailparser';
import { Registry } from 'prom-client';
import { ensureMailSchema } from './mailSchema';
import { parseMailSettings } from './mailSettings';
import { saveNotificationSettings } from './preferences';
import { startMail, type RunningMail } from './startMail';
import { startSmtpTestServer, type SmtpTestServer } from './testing/smtpTestServer';
import { hashToken } from './tokens';

/**
 * The mail reactor and sender against the real PostgreSQL event store (the outbox is the queue) and a real SMTP server in this
 * process: what the bank sends, parsed; the server stopped for a while; a 5xx; the reactor restarted from an old
 * checkpoint. One setup for the whole file.
 */
const PIN = '123456';
let fx: TransferFixture;
let smtp: SmtpTestServer;
let mail: RunningMail | undefined;
let transfers: TransferProcessHandle;
const registry = new Registry();

async function startMailHere(): Promise<RunningMail> {
  mail = await startMail({
    store: fx.store,
    commands: fx.commands,
    pool: fx.pool,
    logger: createLogger('mail-test'),
    registry,
    settings: parseMailSettings({ SMTP_URL: smtp.url, APP_ORIGIN: 'https://bank.test', MAIL_BACKOFF_MS: '100', MAIL_ATTEMPTS: '30' }),
  });
  await mail.reactor.ready;
  return mail;
}

const to = (message: ParsedMail) => (Array.isArray(message.to) ? message.to[0] : message.to)?.value[0]?.address;
const of = (email: string, subject?: RegExp) => smtp.received.filter((m) => to(m) === email && (!subject || subject.test(m.subject ?? '')));

async function changePassword(userId: string): Promise<void> {
  await fx.commands.execute({
    decider: customerDecider,
    streamId: streams.customer(userId),
    decide: (state) => customerDecider.decide({ type: 'ChangePassword', oldPasswordMatches: true, newPasswordHash: '$2b$04$anotherhashanotherhashanotherhashanotherhash', now: new Date().toISOString() }, state),
    context: { metadata: { actorId: userId, actorRole: 'customer' } },
    commandType: 'ChangePassword',
  });
}

/** The outbox statements the pool runs while `work` runs (the pool's own query calls, counted: the real pool runs them). */
async function outboxStatements(work: () => Promise<void>): Promise<{ inserts: number; claims: number }> {
  const counts = { inserts: 0, claims: 0 };
  const query = fx.pool.query.bind(fx.pool) as (...args: unknown[]) => unknown;
  (fx.pool as unknown as { query: (...args: unknown[]) => unknown }).query = (...args: unknown[]) => {
    const text = typeof args[0] === 'string' ? args[0] : '';
    if (text.includes('INSERT INTO mail.messages')) counts.inserts += 1;
    if (text.includes('FOR UPDATE SKIP LOCKED')) counts.claims += 1;
    return query(...args);
  };
  try {
    await work();
  } finally {
    delete (fx.pool as unknown as { query?: unknown }).query;
  }
  return counts;
}

async function metric(result: string): Promise<number> {
  const values = (await registry.getSingleMetric('bank_mail_messages_total')?.get())?.values ?? [];
  return values.filter((v) => v.labels.result === result).reduce((sum, v) => sum + v.value, 0);
}

beforeAll(async () => {
  fx = await createTransferFixture('mail');
  await migrateReadModels(fx.pool);
  await ensureMailSchema(fx.pool);
  smtp = await startSmtpTestServer();
  transfers = startTransferProcess({ store: fx.store, commands: fx.commands, pool: fx.pool, signals: fx.signals });
  await transfers.ready;
  await startMailHere();
});

afterAll(async () => {
  await mail?.stop();
  await transfers?.stop();
  await smtp?.stop().catch(() => undefined);
  await fx?.redis.clean();
  await fx?.close();
});

describe('the mail reactor and sender', () => {
  it('sign-up sends a confirmation link on APP_ORIGIN: text and HTML parts, a Message-ID of its event and kind, the bank in the footer; only the hash is stored', async () => {
    const customer = await fx.openCustomer();
    await waitUntil(async () => of(customer.email).length === 1, { what: 'the confirmation message' });
    const message = of(customer.email)[0]!;
    const [registered] = await fx.store.readStream(streams.customer(customer.userId), { limit: 1 });
    expect(message.messageId).toBe(`<verifyEmail.${registered!.id}@summitbank.example>`);
    expect(message.subject).toMatch(/Confirm your e-mail address/);
    const link = /https:\/\/bank\.test\/verify-email\?token=([A-Za-z0-9_-]+)/.exec(message.text ?? '');
    expect(link).not.toBeNull();
    expect(message.html).toContain(`https://bank.test/verify-email?token=${link![1]}`);
    expect(message.text).toContain('Summit Bank, 1200 Summit Plaza, Denver, CO 80202, United States');
    const { rows } = await fx.pool.query('SELECT token_hash FROM mail.tokens WHERE user_id = $1', [customer.userId]);
    expect(rows).toEqual([{ token_hash: hashToken(link![1]!) }]);
  });

  it('money from another customer: a notice naming the payer, the amount and the last four digits only; moving one\'s own money sends none', async () => {
    const payer = await fx.openCustomer({ savingsCents: 100_00, pin: PIN, firstName: 'Paula' });
    const payee = await fx.openCustomer({ firstName: 'Quentin' });
    const pay = (accountNumber: string, amount: number) =>
      requestTransfer(
        { commands: fx.commands, pool: fx.pool, signals: fx.signals, pinKeys: fx.pinKeys, creditWaitMs: 10_000 },
        {
          userId: payer.userId,
          input: transferInput.parse({ from: 'savings', accountType: 'checking', bankName: 'Summit Bank', to: 'Recipient', paymentPin: PIN, amount, accountNumber, description: 'Rent share' }),
          idempotencyKey: randomUUID(),
        },
      );
    expect((await pay(payee.accountNumber, 25)).status).toBe('completed');
    expect((await pay(payer.accountNumber, 5)).status).toBe('completed');
    await waitUntil(async () => of(payee.email, /You received/).length === 1, { what: 'the money-received notice' });
    const notice = of(payee.email, /You received/)[0]!;
    console.log(`The money-received notice's text part, as the SMTP server received it:\n${notice.text}`);
    expect(notice.subject).toBe('You received $25.00');
    expect(notice.text).toContain(`Paula ${payer.lastName} sent you $25.00. It is in your checking account ending ${payee.accountNumber.slice(-4)}.`);
    expect(notice.text).not.toContain(payee.accountNumber);
    expect(notice.html).not.toContain(payee.accountNumber);
    // The payer's own transfer (savings to checking) arrives after the payee's: by then it would have been sent.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(of(payer.email, /You received/)).toEqual([]);
  });

  it("reads a payee's stream once for many notices, and again after they change their address: the next notice goes to the new one", async () => {
    const payer = await fx.openCustomer({ savingsCents: 100_00, pin: PIN, firstName: 'Rita' });
    const payee = await fx.openCustomer({ firstName: 'Sami' });
    await waitUntil(async () => of(payee.email).length === 1, { what: 'the confirmation message' });
    const pay = (amount: number) =>
      requestTransfer(
        { commands: fx.commands, pool: fx.pool, signals: fx.signals, pinKeys: fx.pinKeys, creditWaitMs: 10_000 },
        {
          userId: payer.userId,
          input: transferInput.parse({ from: 'savings', accountType: 'checking', bankName: 'Summit Bank', to: 'Sami', paymentPin: PIN, amount, accountNumber: payee.accountNumber, description: 'Lunch' }),
          idempotencyKey: randomUUID(),
        },
      );
    // The payee's customer stream is read by the reactor only (the transfer looks at the payee as this process last saw it).
    const payeeStream = streams.customer(payee.userId);
    let payeeReads = 0;
    const readStream = fx.store.readStream.bind(fx.store);
    fx.store.readStream = (stream, range) => {
      if (stream === payeeStream) payeeReads += 1;
      return readStream(stream, range);
    };
    try {
      for (const amount of [1, 2, 3, 4]) expect((await pay(amount)).status).toBe('completed');
      await waitUntil(async () => of(payee.email, /You received/).length === 4, { what: 'four money-received notices' });
      expect(payeeReads).toBeLessThanOrEqual(1);

      const newEmail = `moved-${randomUUID().slice(0, 8)}@example.com`;
      await fx.commands.execute({
        decider: customerDecider,
        streamId: payeeStream,
        decide: (state) => {
          if (state.status === 'unregistered') throw new Error('the payee is registered');
          return customerDecider.decide({ type: 'ChangeProfile', email: newEmail, phone: state.phone, address: state.address, state: state.state, now: new Date().toISOString() }, state);
        },
        context: { metadata: { actorId: payee.userId, actorRole: 'customer' } },
        commandType: 'ChangeProfile',
      });
      expect((await pay(5)).status).toBe('completed');
      await waitUntil(async () => of(newEmail, /You received/).length === 1, { what: 'the notice at the new address' });
      expect(of(newEmail, /You received/)[0]!.subject).toBe('You received $5.00');
      expect(of(payee.email, /You received/)).toHaveLength(4);
    } finally {
      fx.store.readStream = readStream;
    }
  });

  it('the SMTP server down for a while: the messages wait and go when it is back, none lost and none doubled', async () => {
    const customers = await Promise.all([fx.openCustomer(), fx.openCustomer(), fx.openCustomer()]);
    await waitUntil(async () => customers.every((c) => of(c.email).length === 1), { what: 'the confirmation messages' });
    const retriedBefore = await metric('retried');
    await smtp.stop();
    for (const customer of customers) await changePassword(customer.userId);
    await waitUntil(async () => (await metric('retried')) > retriedBefore, { what: 'a failed try' });
    expect(customers.flatMap((c) => of(c.email, /password was changed/))).toEqual([]);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    await smtp.start();
    await waitUntil(async () => customers.every((c) => of(c.email, /password was changed/).length === 1), { what: 'the waiting messages', timeoutMs: 30_000 });
    await new Promise((resolve) => setTimeout(resolve, 500));
    for (const customer of customers) expect(of(customer.email, /password was changed/)).toHaveLength(1);
    expect(of(customers[0]!.email, /password was changed/)[0]!.text).toContain('The password of your online banking was changed');
  });

  it('a 5xx is permanent: logged, counted, marked failed, and the other messages still go', async () => {
    const [bouncing, fine] = await Promise.all([fx.openCustomer(), fx.openCustomer()]);
    await waitUntil(async () => of(fine.email).length === 1 && of(bouncing.email).length === 1, { what: 'the confirmation messages' });
    const failedBefore = await metric('failed');
    smtp.rejected.add(bouncing.email);
    await changePassword(bouncing.userId);
    await changePassword(fine.userId);
    await waitUntil(async () => of(fine.email, /password was changed/).length === 1, { what: 'the other message' });
    // The sender counts a delivery's outcome as it happens and records its batch's outcomes after: once the row says
    // failed, the count has moved.
    const bounced = async () => (await fx.pool.query(`SELECT status, error FROM mail.messages WHERE user_id = $1 AND kind = 'passwordChanged'`, [bouncing.userId])).rows;
    await waitUntil(async () => (await bounced())[0]?.status !== 'queued', { what: 'the permanent failure recorded' });
    expect(await bounced()).toMatchObject([{ status: 'failed', error: expect.stringMatching(/550|No such mailbox/) }]);
    expect(await metric('failed')).toBe(failedBefore + 1);
  });

  it('a message recorded while no sender looked (its outbox row only, no notification) is sent once, and a sent message is never sent again', async () => {
    const customer = await fx.openCustomer();
    await waitUntil(async () => of(customer.email).length === 1, { what: 'the confirmation message' });
    const id = `passwordChanged.${randomUUID()}`;
    await fx.pool.query(
      `INSERT INTO mail.messages (id, kind, user_id, recipient, data, created_at) VALUES ($1, 'passwordChanged', $2, $3, $4, now() - interval '1 hour')`,
      [id, customer.userId, customer.email, JSON.stringify({ firstName: 'Stranded', how: 'changed', at: 'yesterday' })],
    );
    await waitUntil(async () => of(customer.email, /password was changed/).length === 1, { what: 'the unannounced message', timeoutMs: 15_000 });
    // Recorded again (a replay) and the senders woken: nothing more goes.
    await mail!.outbox.enqueue({ id, kind: 'passwordChanged', userId: customer.userId, to: customer.email, data: { firstName: 'Stranded', how: 'changed', at: 'yesterday' } });
    mail!.sender.wake();
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(of(customer.email, /password was changed/)).toHaveLength(1);
    expect(of(customer.email)).toHaveLength(2);
    const { rows } = await fx.pool.query(`SELECT status, attempts FROM mail.messages WHERE id = $1`, [id]);
    expect(rows).toEqual([{ status: 'sent', attempts: 1 }]);
  });

  it('a sender that died holding its claim: the rows are due again after the lease and sent by another sender, once', async () => {
    const customer = await fx.openCustomer();
    await waitUntil(async () => of(customer.email).length === 1, { what: 'the confirmation message' });
    const id = `passwordChanged.${randomUUID()}`;
    // Claimed by a sender that then died (attempts 1, due again when its lease ends: here in a second).
    await fx.pool.query(
      `INSERT INTO mail.messages (id, kind, user_id, recipient, data, attempts, due_at) VALUES ($1, 'passwordChanged', $2, $3, $4, 1, now() + interval '1 second')`,
      [id, customer.userId, customer.email, JSON.stringify({ firstName: 'Claimed', how: 'changed', at: 'today' })],
    );
    mail!.sender.wake();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(of(customer.email, /password was changed/)).toEqual([]);
    await waitUntil(async () => of(customer.email, /password was changed/).length === 1, { what: 'the message after the lease', timeoutMs: 15_000 });
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(of(customer.email, /password was changed/)).toHaveLength(1);
  });

  it('many notices at once are recorded in batches: far fewer outbox statements than messages; each names its payer from the debit, without reading the transfer\'s record', async () => {
    const payer = await fx.openCustomer({ savingsCents: 1_000_00, pin: PIN, firstName: 'Batch' });
    const payees = await Promise.all(Array.from({ length: 20 }, () => fx.openCustomer()));
    await waitUntil(async () => payees.every((p) => of(p.email).length === 1), { what: 'the confirmation messages' });
    // The reactor's read of a transfer's record (its first event): counted on the real store.
    let recordReads = 0;
    const readStream = fx.store.readStream.bind(fx.store);
    fx.store.readStream = (stream, options) => {
      if (stream.startsWith('transfer-') && options?.limit === 1 && options.fromRevision === undefined) recordReads += 1;
      return readStream(stream, options);
    };
    const calls = await outboxStatements(async () => {
      await Promise.all(
        payees.map((payee) =>
          requestTransfer(
            { commands: fx.commands, pool: fx.pool, signals: fx.signals, pinKeys: fx.pinKeys, creditWaitMs: 10_000 },
            {
              userId: payer.userId,
              input: transferInput.parse({ from: 'savings', accountType: 'checking', bankName: 'Summit Bank', to: 'Recipient', paymentPin: PIN, amount: 1, accountNumber: payee.accountNumber, description: 'batch' }),
              idempotencyKey: randomUUID(),
            },
          ),
        ),
      );
      await waitUntil(async () => payees.every((p) => of(p.email, /You received/).length === 1), { what: 'the 20 notices', timeoutMs: 20_000 });
    });
    // One INSERT records a batch; one UPDATE claims and one records a sending batch (each its own transaction).
    fx.store.readStream = readStream;
    expect(calls.inserts).toBeLessThan(20);
    expect(calls.claims).toBeLessThan(20);
    expect(recordReads).toBe(0);
    for (const payee of payees) expect(of(payee.email, /You received/)[0]!.text).toContain(`Batch ${payer.lastName} sent you $1.00`);
  });

  it('the close of a month’s last day: one "statement ready" notice to each customer but those who turned it off, once; another day’s close sends none', async () => {
    // The notices go to the customers the read models hold once they hold the close: the projector runs for this test.
    const projector = startProjector({ pool: fx.pool, store: fx.store });
    try {
      const [reader, quiet] = [await fx.openCustomer(), await fx.openCustomer()];
      await saveNotificationSettings(fx.pool, quiet.userId, new Map([['statementReady', false]]));
      const close = (businessDate: string) => ({
        id: randomUUID(),
        type: 'BusinessDayClosed',
        data: { businessDate, closedAt: new Date().toISOString(), throughPosition: '', accounts: [], totalDebitsCents: '0', totalCreditsCents: '0', balanced: true, journalHash: '0'.repeat(64), lineCount: 0 },
        metadata: { schemaVersion: 1, actorRole: 'system' },
      });
      const notices = async () => (await fx.pool.query<{ id: string; user_id: string }>(`SELECT id, user_id::text FROM mail.messages WHERE kind = 'statementReady'`)).rows;
      await fx.store.append(streams.businessDays(), [close('2026-01-30')], 'any');
      const monthEnd = close('2026-01-31');
      await fx.store.append(streams.businessDays(), [monthEnd], 'any');
      await waitUntil(async () => of(reader.email, /statement is ready/).length === 1, { what: 'the reader’s statement notice' });
      const { rows: customers } = await fx.pool.query<{ id: string }>(`SELECT id::text FROM rm.users WHERE role = 'customer' AND NOT is_closed`);
      await waitUntil(async () => (await notices()).length === customers.length - 1, { what: 'a notice for every customer but one' });
      const message = of(reader.email, /statement is ready/)[0]!;
      expect(message.subject).toBe('Your January 2026 statement is ready');
      expect(message.messageId).toBe(`<statementReady.${monthEnd.id}.${reader.userId}@summitbank.example>`);
      expect(message.text).toContain('https://bank.test/account/statements');
      expect(of(quiet.email, /statement is ready/)).toEqual([]);
      const recorded = await notices();
      expect(new Set(recorded.map((row) => row.user_id))).toEqual(new Set(customers.map((row) => row.id).filter((id) => id !== quiet.userId)));
      // The close of the 30th sent nothing: every notice is the month end's.
      expect(recorded.every((row) => row.id.startsWith(`statementReady.${monthEnd.id}.`))).toBe(true);
    } finally {
      await projector.stop();
    }
  });

  it('the reactor restarted from an old checkpoint queues the same messages again, and nothing is sent twice', async () => {
    const { rows: [old] } = await fx.pool.query<{ position: string }>(`SELECT position FROM mail.checkpoint WHERE name = 'mail'`);
    const customer = await fx.openCustomer();
    await changePassword(customer.userId);
    await waitUntil(async () => of(customer.email).length === 2, { what: 'the two messages' });
    const sentBefore = smtp.received.length;
    await mail!.stop();
    await fx.pool.query(`UPDATE mail.checkpoint SET position = $1 WHERE name = 'mail'`, [old!.position]);
    await startMailHere();
    const last = fx.lastPosition()!;
    await waitUntil(async () => {
      const { rows } = await fx.pool.query<{ position: string }>(`SELECT position FROM mail.checkpoint WHERE name = 'mail'`);
      return rows[0]!.position >= formatPosition(last);
    }, { what: 'the reactor past the replayed events' });
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(smtp.received.length).toBe(sentBefore);
    const ids = smtp.received.map((m) => m.messageId);
    expect(new Set(ids).size).toBe(ids.length);
  });
});
