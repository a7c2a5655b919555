import { randomUUID } from 'node:crypto';
import { handleCommand, toNewEvents, type DomainEventLike } from '@bank/core';
import {
  accountDecider,
  customerDecider,
  decideTransferRequest,
  decideTransferStep,
  streams,
  transferDecider,
  type AccountCommand,
  type CustomerCommand,
  type Decider,
} from '@bank/domain';
import type { EventStore } from '@bank/eventstore';

/**
 * Builds histories straight through the domain's deciders and core's command handler (the same events the API
 * appends), at chosen instants, for the audit tests that must not wait for real time to pass.
 */
export interface Actor {
  readonly id: string;
  readonly role: 'customer' | 'admin' | 'system';
}

export function createHistoryBuilder(store: EventStore) {
  async function run<C, E extends DomainEventLike, S>(decider: Decider<C, E, S>, streamId: string, command: C, actor: Actor, now: Date) {
    return handleCommand({
      store,
      streamId,
      evolve: decider.evolve,
      initialState: decider.initialState,
      decide: (state) => decider.decide(command, state),
      context: { metadata: { actorId: actor.id, actorRole: actor.role, schemaVersion: 1 } },
      now: () => now,
    });
  }

  async function appendRaw(streamId: string, events: readonly DomainEventLike[], actor: Actor, now: Date) {
    if (events.length === 0) return;
    const existing = await store.readStream(streamId);
    const last = existing.at(-1);
    const lastHash = typeof last?.metadata.hash === 'string' ? last.metadata.hash : null;
    await store.append(
      streamId,
      toNewEvents(streamId, events, { revision: last?.revision, lastHash }, { metadata: { actorId: actor.id, actorRole: actor.role, schemaVersion: 1 } }, now),
      last ? last.revision : 'no_stream',
    );
  }

  async function state<C, E extends DomainEventLike, S>(decider: Decider<C, E, S>, streamId: string): Promise<S> {
    const events = await store.readStream(streamId);
    return events.reduce((s, e) => decider.evolve(s, { type: e.type, data: e.data } as unknown as E), decider.initialState);
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

    /** An internal transfer, requested by the payer and credited to the payee (request, then the worker's step). */
    async transfer(
      input: { payerId: string; payeeId: string; payeeName: string; payeeAccountNumber: string; from: 'savings' | 'checking'; to: 'savings' | 'checking'; amountCents: number; description: string },
      now: Date,
      creditedAt: Date = now,
    ) {
      const transferId = randomUUID();
      const payer: Actor = { id: input.payerId, role: 'customer' };
      const system: Actor = { id: '00000000-0000-4000-8000-000000000000', role: 'system' };
      const decision = decideTransferRequest(
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
          routingNumber: '123456789',
          accountType: input.to,
          description: input.description,
          pinMatches: true,
          now: now.toISOString(),
        },
        {
          customer: await state(customerDecider, streams.customer(input.payerId)),
          account: await state(accountDecider, streams.account(input.payerId)),
          recipient: { kind: 'internal', payeeId: input.payeeId, name: input.payeeName },
        },
      );
      await appendRaw(streams.account(input.payerId), decision.payerAccount, payer, now);
      await appendRaw(streams.transfer(transferId), decision.transfer, payer, now);
      const step = decideTransferStep(
        { type: 'CreditPayee', now: creditedAt.toISOString() },
        {
          transfer: await state(transferDecider, streams.transfer(transferId)),
          payerAccount: await state(accountDecider, streams.account(input.payerId)),
          payeeAccount: await state(accountDecider, streams.account(input.payeeId)),
        },
      );
      await appendRaw(streams.account(input.payeeId), step.payeeAccount, system, creditedAt);
      await appendRaw(streams.account(input.payerId), step.payerAccount, system, creditedAt);
      await appendRaw(streams.transfer(transferId), step.transfer, system, creditedAt);
      return transferId;
    },
  };
}

/** A small RFC 4180 reader, to prove that what we write reads back to the same values. */
export function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i += 1) {
    const char = text[i]!;
    if (quoted) {
      if (char === '"' && text[i + 1] === '"') {
        field += '"';
        i += 1;
      } else if (char === '"') quoted = false;
      else field += char;
    } else if (char === '"') quoted = true;
    else if (char === ',') {
      record.push(field);
      field = '';
    } else if (char === '\r' && text[i + 1] === '\n') {
      record.push(field);
      records.push(record);
      record = [];
      field = '';
      i += 1;
    } else field += char;
  }
  return records;
}

