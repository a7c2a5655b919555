import type { Position } from '@bank/eventstore';
import { turnNotifier, type Logger } from '@bank/platform';
import pg from 'pg';

/**
 * How the request path learns, without polling, that the transfer process has finished an internal transfer: the
 * process publishes each outcome; a request that waits registers BEFORE it appends the debit (so the outcome cannot
 * come first) and is woken by it, or gives up after its bound and answers `pending`.
 *
 * In one process the outcome reaches the waiter directly. Across processes it travels by PostgreSQL NOTIFY on a
 * channel of the bank's database: sent in a transaction of its own (never inside an append, which would serialise
 * every append's commit), several outcomes per notification when they come together. A notification lost (a
 * dropped connection) only means that request answers `pending` at its bound; the transfer completes regardless.
 */
export interface TransferOutcome {
  readonly transferId: string;
  readonly status: 'completed' | 'failed';
  /** The position of the last event that decided the outcome on the payer's account (for read-your-writes). */
  readonly position: Position;
}

export interface OutcomeWaiter {
  /** Resolves with the outcome, or undefined after `timeoutMs`. */
  wait(timeoutMs: number): Promise<TransferOutcome | undefined>;
  cancel(): void;
}

export interface TransferSignals {
  publish(outcome: TransferOutcome): void;
  /** Registers interest in a transfer's outcome; call before the debit is appended. */
  expect(transferId: string): OutcomeWaiter;
  close(): Promise<void>;
}

export const TRANSFER_OUTCOME_CHANNEL = 'bank_transfer_outcomes';
const MAX_PAYLOAD = 7_000;

type Wire = [string, 'c' | 'f', string, string];

function toWire(outcome: TransferOutcome): Wire {
  return [outcome.transferId, outcome.status === 'completed' ? 'c' : 'f', outcome.position.commit.toString(), outcome.position.prepare.toString()];
}

function fromWire([transferId, status, commit, prepare]: Wire): TransferOutcome {
  return { transferId, status: status === 'c' ? 'completed' : 'failed', position: { commit: BigInt(commit), prepare: BigInt(prepare) } };
}

/** Chunks of outcomes whose JSON stays under NOTIFY's payload limit. */
function payloads(outcomes: readonly TransferOutcome[]): string[] {
  const chunks: string[] = [];
  let current: Wire[] = [];
  let size = 2;
  for (const outcome of outcomes) {
    const wire = toWire(outcome);
    const length = JSON.stringify(wire).length + 1;
    if (size + length > MAX_PAYLOAD && current.length > 0) {
      chunks.push(JSON.stringify(current));
      current = [];
      size = 2;
    }
    current.push(wire);
    size += length;
  }
  if (current.length > 0) chunks.push(JSON.stringify(current));
  return chunks;
}

export interface TransferSignalsOptions {
  /** The bank's database (NOTIFY and LISTEN). Without it, outcomes reach waiters of this process only. */
  readonly pool?: pg.Pool;
  readonly channel?: string;
  readonly logger?: Logger;
}

export function createTransferSignals(options: TransferSignalsOptions = {}): TransferSignals {
  const channel = options.channel ?? TRANSFER_OUTCOME_CHANNEL;
  const waiters = new Map<string, Set<(outcome: TransferOutcome) => void>>();
  let queued: TransferOutcome[] = [];
  let sending: Promise<void> | undefined;
  let listener: pg.Client | undefined;
  let connecting: Promise<void> | undefined;
  let reconnectTimer: NodeJS.Timeout | undefined;
  let failures = 0;
  let closed = false;

  function deliver(outcome: TransferOutcome): void {
    const set = waiters.get(outcome.transferId);
    if (!set) return;
    waiters.delete(outcome.transferId);
    for (const wake of set) wake(outcome);
  }

  function send(): void {
    if (sending || queued.length === 0 || !options.pool || closed) return;
    const batch = queued;
    queued = [];
    const pool = options.pool;
    sending = (async () => {
      for (const payload of payloads(batch)) {
        await turnNotifier(pool)(channel, payload).catch((error: unknown) => {
          options.logger?.warn({ err: error }, 'could not notify transfer outcomes; waiting requests will answer pending');
        });
      }
    })().finally(() => {
      sending = undefined;
      send();
    });
  }

  function scheduleReconnect(): void {
    if (closed || reconnectTimer) return;
    failures += 1;
    reconnectTimer = setTimeout(() => {
      reconnectTimer = undefined;
      void listen();
    }, Math.min(5_000, 50 * 2 ** failures));
    reconnectTimer.unref();
  }

  function listen(): Promise<void> {
    if (!options.pool || listener || connecting || closed) return connecting ?? Promise.resolve();
    const client = new pg.Client({ ...options.pool.options, application_name: 'bank-transfer-outcomes' });
    const lost = () => {
      if (listener !== client) return; // failures while connecting are handled below
      listener = undefined;
      client.removeAllListeners('notification');
      client.end().catch(() => undefined);
      scheduleReconnect();
    };
    client.on('error', lost);
    client.on('end', lost);
    client.on('notification', (message) => {
      if (message.channel !== channel || !message.payload) return;
      try {
        for (const wire of JSON.parse(message.payload) as Wire[]) deliver(fromWire(wire));
      } catch (error) {
        options.logger?.warn({ err: error }, 'unreadable transfer outcome notification');
      }
    });
    connecting = client
      .connect()
      .then(() => client.query(`LISTEN ${pg.escapeIdentifier(channel)}`))
      .then(() => {
        if (closed) {
          void client.end();
          return;
        }
        listener = client;
        failures = 0;
      })
      .catch((error: unknown) => {
        options.logger?.warn({ err: error }, 'transfer outcome LISTEN failed; retrying');
        client.removeAllListeners();
        client.end().catch(() => undefined);
        scheduleReconnect();
      })
      .finally(() => {
        connecting = undefined;
      });
    return connecting;
  }

  return {
    publish(outcome) {
      deliver(outcome);
      if (!options.pool) return;
      queued.push(outcome);
      send();
    },

    expect(transferId) {
      void listen();
      let settle: ((outcome: TransferOutcome | undefined) => void) | undefined;
      let early: TransferOutcome | undefined;
      const wake = (outcome: TransferOutcome) => {
        if (settle) settle(outcome);
        else early = outcome;
      };
      const set = waiters.get(transferId) ?? new Set();
      set.add(wake);
      waiters.set(transferId, set);
      const remove = () => {
        const current = waiters.get(transferId);
        current?.delete(wake);
        if (current?.size === 0) waiters.delete(transferId);
      };
      return {
        wait(timeoutMs) {
          if (early) return Promise.resolve(early);
          return new Promise<TransferOutcome | undefined>((resolve) => {
            const timer = setTimeout(() => {
              remove();
              resolve(undefined);
            }, timeoutMs);
            settle = (outcome) => {
              clearTimeout(timer);
              resolve(outcome);
            };
          });
        },
        cancel: remove,
      };
    },

    async close() {
      closed = true;
      if (reconnectTimer) clearTimeout(reconnectTimer);
      await connecting;
      await sending;
      const client = listener;
      listener = undefined;
      if (client) {
        client.removeAllListeners('end');
        await client.end().catch(() => undefined);
      }
      for (const [transferId] of waiters) waiters.delete(transferId);
    },
  };
}
