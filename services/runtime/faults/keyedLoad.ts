import { randomUUID } from 'node:crypto';
import { BENCH_PIN, call, type BenchCustomer } from '../bench/lib/bankClient';

/** One request of a keyed transfer: its answer (0: no HTTP answer) and when it came. */
export interface KeyedAnswer {
  readonly at: number;
  readonly status: number;
  readonly transferId?: string;
  readonly ms: number;
}

/** A transfer as a careful client makes it: one Idempotency-Key, retried until the bank gives a final answer. */
export interface KeyedTransfer {
  readonly key: string;
  readonly answers: KeyedAnswer[];
}

/** Answers after which the outcome is unknown or not yet decided: the client retries with the same key. */
const RETRY = new Set([0, 409, 502, 503, 504]);

export function isFinal(status: number): boolean {
  return !RETRY.has(status);
}

/**
 * $1 internal transfers between the customers at `inFlight`, until `stop()`. Each transfer has its own key; an
 * answer that leaves its outcome unknown (no answer, 503, 409 "still being processed") is retried with the same key
 * after `retryMs`, so that every transfer ends with a final answer (or is left unfinished when `stop` gives up at
 * its deadline). `stop()` lets the transfers in flight finish their retries.
 */
export function keyedTransferLoad(baseUrl: () => string, customers: readonly BenchCustomer[], inFlight: number, retryMs = 200) {
  const transfers: KeyedTransfer[] = [];
  let starting = true;
  let giveUpAt = Number.POSITIVE_INFINITY;
  const once = async (payer: BenchCustomer, payee: BenchCustomer, key: string): Promise<KeyedAnswer> => {
    const sent = Date.now();
    try {
      const answer = await call<{ data?: { transferId?: string } }>(baseUrl(), 'POST', '/transaction/transfer', {
        token: payer.token,
        headers: { 'idempotency-key': key },
        body: { from: 'checking', amount: 1, accountNumber: payee.accountNumber, bankName: 'Summit Bank', routingNumber: '102000021', accountType: 'checking', to: 'x', paymentPin: BENCH_PIN },
        // A client gives up on an answer after 30 s (status 0, retried with the key): no test waits on a hung request.
        signal: AbortSignal.timeout(30_000),
      });
      const transferId = answer.body?.data?.transferId;
      return { at: Date.now(), status: answer.status, ms: Date.now() - sent, ...(transferId ? { transferId } : {}) };
    } catch {
      return { at: Date.now(), status: 0, ms: Date.now() - sent };
    }
  };
  const done = Promise.all(
    Array.from({ length: inFlight }, async (_, worker) => {
      for (let n = 0; starting; n += 1) {
        const payer = customers[(worker * 7 + n) % customers.length]!;
        const payee = customers[(worker * 7 + n + 1) % customers.length]!;
        const transfer: KeyedTransfer = { key: randomUUID(), answers: [] };
        transfers.push(transfer);
        for (;;) {
          const answer = await once(payer, payee, transfer.key);
          transfer.answers.push(answer);
          if (isFinal(answer.status) || Date.now() > giveUpAt) break;
          await new Promise((resolve) => setTimeout(resolve, retryMs));
        }
      }
    }),
  );
  return {
    transfers,
    /** Stops starting transfers; the unfinished ones retry until `deadlineMs` from now. */
    async stop(deadlineMs = 30_000): Promise<KeyedTransfer[]> {
      starting = false;
      giveUpAt = Date.now() + deadlineMs;
      await done;
      return transfers;
    },
  };
}

export function finalAnswer(transfer: KeyedTransfer): KeyedAnswer {
  return transfer.answers[transfer.answers.length - 1]!;
}

/** Counts of every answer (first tries and retries) by status. */
export function answerCounts(transfers: readonly KeyedTransfer[]): Record<number, number> {
  const counts: Record<number, number> = {};
  for (const transfer of transfers) for (const answer of transfer.answers) counts[answer.status] = (counts[answer.status] ?? 0) + 1;
  return counts;
}
