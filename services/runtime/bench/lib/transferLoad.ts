import { randomUUID } from 'node:crypto';
import { BENCH_PIN, type BenchCustomer } from './bankClient';
import { postJson } from './leanPost';

export interface TransferSample {
  readonly startedAt: number;
  readonly ms: number;
  readonly status: number;
  readonly transferId?: string;
  readonly debitStatus?: string;
  readonly message?: string;
}

export interface LoadPhase {
  readonly inFlight: number;
  readonly seconds: number;
  readonly samples: readonly TransferSample[];
}

interface TransferAnswer {
  readonly message?: string;
  readonly data?: { readonly transferId?: string; readonly status?: string };
}

/** One internal transfer of $1 from `payer`'s checking to `payee`'s checking, over HTTP. */
export async function transferOnce(baseUrl: string, payer: BenchCustomer, payee: BenchCustomer): Promise<TransferSample> {
  const startedAt = Date.now();
  const started = performance.now();
  try {
    const headers = { authorization: `Bearer ${payer.token}`, 'idempotency-key': randomUUID() };
    const body = {
      from: 'checking',
      amount: 1,
      accountNumber: payee.accountNumber,
      bankName: 'Summit Bank',
      routingNumber: '102000021',
      accountType: 'checking',
      to: 'Bench Customer',
      description: 'bench',
      paymentPin: BENCH_PIN,
    };
    const answer = (await postJson(`${baseUrl}/api/transaction/transfer`, headers, body)) as { status: number; body: TransferAnswer | undefined };
    const ms = performance.now() - started;
    return {
      startedAt,
      ms,
      status: answer.status,
      ...(answer.body?.data?.transferId ? { transferId: answer.body.data.transferId } : {}),
      ...(answer.body?.data?.status ? { debitStatus: answer.body.data.status } : {}),
      ...(answer.status >= 300 ? { message: answer.body?.message ?? String(answer.body) } : {}),
    };
  } catch (error) {
    return { startedAt, ms: performance.now() - started, status: 0, message: (error as Error).message };
  }
}

/** `inFlight` clients, each sending one transfer after another between random customers, for `seconds`. */
export async function runTransferPhase(baseUrl: string, customers: readonly BenchCustomer[], inFlight: number, seconds: number): Promise<LoadPhase> {
  const samples: TransferSample[] = [];
  const deadline = Date.now() + seconds * 1000;
  const pick = () => customers[Math.floor(Math.random() * customers.length)]!;
  await Promise.all(
    Array.from({ length: inFlight }, async () => {
      while (Date.now() < deadline) {
        const payer = pick();
        let payee = pick();
        while (payee === payer) payee = pick();
        samples.push(await transferOnce(baseUrl, payer, payee));
      }
    }),
  );
  return { inFlight, seconds, samples };
}
