import { randomUUID } from 'node:crypto';
import { createCommandHandler, toNewEvents, type DomainEventLike } from '@bank/commands';
import {
  accountDecider,
  customerDecider,
  decideTransferRequest,
  streams,
  transferRequestOf,
  type AccountCommand,
  type CustomerCommand,
  type Decider,
} from '@bank/domain';
import type { EventStore } from '@bank/eventstore';
import type { Keyring } from '@bank/platform';
import { advanceTransfer } from '@bank/transfers';

/**
 * Builds histories through the domain's deciders and the bank's command handler — the same events, in the same
 * order, as production appends them (a transfer: the payer's debit carrying the request, then the transfer process's
 * steps) — at chosen instants, for the audit tests that must not wait for real time to pass. Runs one command at a
 * time (the instant is the builder's clock while it runs). With `chainKeys`, the events' hashes are keyed, as the
 * bank's are; without, they are legacy (plain SHA-256).
 */
export interface Actor {
  readonly id: string;
  readonly role: 'customer' | 'admin' | 'system';
}

export function createHistoryBuilder(store: EventStore, options: { readonly chainKeys?: Keyring } = {}) {
  let clock = new Date();
  const chainKey = options.chainKeys?.current;
  const commands = createCommandHandler({ store, now: () => clock, ...(options.chainKeys ? { chainKeys: options.chainKeys } : {}) });

  async function run<C, E extends DomainEventLike, S>(decider: Decider<C, E, S>, streamId: string, command: C, actor: Actor, now: Date) {
    clock = now;
    return commands.execute({
      decider,
      streamId,
      decide: (state) => decider.decide(command, state),
      context: { metadata: { actorId: actor.id, actorRole: actor.role } },
      commandType: String((command as { type?: string }).type),
    });
  }

  async function appendRaw(streamId: string, events: readonly DomainEventLike[], actor: Actor, now: Date) {
    if (events.length === 0) return;
    const existing = await store.readStream(streamId);
    const last = existing.at(-1);
    const lastHash = typeof last?.metadata.hash === 'string' ? last.metadata.hash : null;
    await store.append(
      streamId,
      toNewEvents(streamId, events, { revision: last?.revision, lastHash }, { metadata: { actorId: actor.id, actorRole: actor.role } }, now, chainKey),
      last ? last.revision : 'no_stream',
    );
  }

  return {
    async register(input: { firstName: string; lastName: string; email: string; accountNumber: string; role?: 'customer' | 'admin' }, now: Date) {
      const userId = randomUUID();
      const self: Actor = { id: userId, role: 'customer' };
      await run(customerDecider, streams.customer(userId), {
        type: 'RegisterCustomer',
        userId,
        firstName: input.firstName,
        lastName: input.lastName,
        email: input.email,
        phone: '555-0100',
        address: '1 Main St',
        state: 'NY',
        passwordHash: '$2a$10$abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJKLMNOPQ',
        accountNumber: input.accountNumber,
        role: input.role ?? 'customer',
        now: now.toISOString(),
      } satisfies CustomerCommand, self, now);
      await appendRaw(streams.email(input.email), [{ type: 'EmailReserved', data: { email: input.email.toLowerCase(), userId } }], self, now);
      if ((input.role ?? 'customer') === 'customer') {
        await run(accountDecider, streams.account(userId), { type: 'OpenAccount', userId, accountNumber: input.accountNumber, now: now.toISOString() } satisfies AccountCommand, self, now);
      }
      return userId;
    },

    customer(userId: string, command: CustomerCommand, actor: Actor, now: Date) {
      return run(customerDecider, streams.customer(userId), command, actor, now);
    },

    account(userId: string, command: AccountCommand, actor: Actor, now: Date) {
      return run(accountDecider, streams.account(userId), command, actor, now);
    },

    /**
     * An internal transfer as production makes it: the payer's request (one debit carrying the intent) at `now`, then
     * the transfer process's credit step at `creditedAt` (payee credited, debit completed, the transfer recorded).
     */
    async transfer(
      input: { payerId: string; payeeId: string; payeeName: string; payeeAccountNumber: string; from: 'savings' | 'checking'; to: 'savings' | 'checking'; amountCents: number; description: string },
      now: Date,
      creditedAt: Date = now,
    ) {
      const transferId = randomUUID();
      const customer = await commands.read(customerDecider, streams.customer(input.payerId), (state) => state);
      clock = now;
      const requested = await commands.execute({
        decider: accountDecider,
        streamId: streams.account(input.payerId),
        decide: (account) =>
          decideTransferRequest(
            {
              type: 'RequestTransfer',
              transferId,
              payerId: input.payerId,
              debitTransactionId: randomUUID(),
              creditTransactionId: randomUUID(),
              refundTransactionId: randomUUID(),
              from: input.from,
              amountCents: input.amountCents,
              accountNumber: input.payeeAccountNumber,
              bankName: 'Summit Bank',
              routingNumber: '021000021',
              accountType: input.to,
              description: input.description,
              pinMatches: true,
              now: now.toISOString(),
            },
            { customer, account, recipient: { kind: 'internal', payeeId: input.payeeId, name: input.payeeName } },
          ),
        context: { metadata: { actorId: input.payerId, actorRole: 'customer' } },
        commandType: 'RequestTransfer',
      });
      const debit = requested.events[0];
      const request = debit?.type === 'AccountDebited' ? transferRequestOf(input.payerId, debit.data) : undefined;
      if (!request) throw new Error('The request recorded no debit');
      clock = creditedAt;
      await advanceTransfer({ commands, now: () => creditedAt }, request, { from: 'credit' });
      return transferId;
    },
  };
}

