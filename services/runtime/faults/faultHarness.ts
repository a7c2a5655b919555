import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { freeTcpPort, startPrivatePostgres, startPrivateRedis, type PrivatePostgres, type PrivateRedis } from '@bank/testkit';
import { startBank, type BankProcess } from '../bench/lib/bankProcess';
import { BENCH_PIN, call, expectStatus, mapLimit, signUpCustomer, type BenchCustomer } from '../bench/lib/bankClient';
import { freshBankKeys } from '../bench/lib/bankSecrets';
import { readQuietState } from '../bench/lib/quietState';
import { signInStaff } from '../bench/lib/staffSignIn';

/**
 * A bank of its own for the fault tests: private PostgreSQL and Redis servers (stopped and started by the tests with
 * the machine's own commands), the bank as real processes, funded customers with pins, and a transfer load that
 * records every answer, retrying a request that got no answer at all with the same Idempotency-Key (as a client
 * should: the key makes the retry safe).
 */
export const repoRoot = path.resolve(import.meta.dirname, '../../..');
export const INITIAL_DOLLARS = 10_000;

/** What the harness needs of a PostgreSQL: a URL per database (the bank's one DATABASE_URL) and a way to end it. */
export interface FaultPostgres {
  databaseUrl(name: string): string;
  destroy(): Promise<void>;
}

export interface FaultBank<P extends FaultPostgres = PrivatePostgres> {
  readonly postgres: P;
  readonly redis: PrivateRedis;
  readonly databaseUrl: string;
  readonly pool: pg.Pool;
  readonly port: number;
  bank: BankProcess;
  readonly env: Record<string, string>;
  /** Starts the bank again (after a kill) on the same port, database and keys. */
  restart(command?: string, extraEnv?: Record<string, string>): Promise<BankProcess>;
  customers: BenchCustomer[];
  admin: string;
  destroy(): Promise<void>;
}

export interface FaultBankOptions<P extends FaultPostgres = FaultPostgres> {
  customers?: number;
  command?: string;
  /** The bank's extra environment, or a function of the started PostgreSQL (a replica's URL, say). */
  env?: Record<string, string> | ((postgres: P) => Record<string, string>);
  /** The bank's Redis (default: a private one on 127.0.0.1). */
  redis?: () => Promise<PrivateRedis>;
  /** The address the bank is reached at (when it runs in a network namespace of its own). */
  host?: string;
}

export async function createFaultBank(options?: FaultBankOptions): Promise<FaultBank>;
export async function createFaultBank<P extends FaultPostgres>(options: FaultBankOptions<P> & { postgres: () => Promise<P> }): Promise<FaultBank<P>>;
export async function createFaultBank(options: FaultBankOptions & { postgres?: () => Promise<FaultPostgres> } = {}): Promise<FaultBank<FaultPostgres>> {
  // Whatever started is ended again when the set-up fails (a leaked cluster would load the machine for every later test).
  const started = await Promise.allSettled([(options.postgres ?? startPrivatePostgres)(), (options.redis ?? startPrivateRedis)()]);
  const [postgresStart, redisStart] = started;
  if (postgresStart.status === 'rejected' || redisStart.status === 'rejected') {
    await Promise.all(started.map((result) => (result.status === 'fulfilled' ? result.value.destroy().catch(() => undefined) : undefined)));
    throw postgresStart.status === 'rejected' ? postgresStart.reason : (redisStart as PromiseRejectedResult).reason;
  }
  const postgres = postgresStart.value;
  const redis = redisStart.value;
  const databaseUrl = postgres.databaseUrl('bank');
  const port = await freeTcpPort();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'bank-faults-'));
  const adminEmail = `faults-admin@bank.example`;
  const adminPassword = `faults-admin-${randomBytes(6).toString('hex')}`;
  const env: Record<string, string> = {
    NODE_ENV: 'test',
    ...freshBankKeys(),
    DATABASE_URL: databaseUrl,
    REDIS_URL: redis.url,
    REDIS_PREFIX: 'faults:',
    ADMIN_EMAIL: adminEmail,
    ADMIN_PASSWORD: adminPassword,
    STAFF_SECOND_FACTOR: 'optional',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    RATE_LIMIT_SIGNUPS: '1000000',
    // The set-up's sign-ups hash passwords and pins: on a loaded 2-core machine slower than the production deadline
    // (8 s). A test of the deadline restarts the bank with its own.
    REQUEST_DEADLINE_MS: '60000',
    ...(typeof options.env === 'function' ? options.env(postgres) : options.env),
  };
  const command = options.command ?? 'node --import tsx services/runtime/src/main.ts';
  const launch = (cmd: string, extraEnv: Record<string, string> = {}) =>
    startBank({ command: cmd, cwd: repoRoot, env: { ...env, ...extraEnv }, port, logFile: path.join(dataDir, `bank-${Date.now()}.log`), readyTimeoutMs: 120_000, ...(options.host ? { host: options.host } : {}) });
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 3 });
  pool.on('error', () => undefined);
  pool.on('connect', (client) => client.on('error', () => undefined));
  let bank: BankProcess | undefined;
  let admin: string;
  let customers: BenchCustomer[];
  try {
    bank = await launch(command);
    const baseUrl = bank.baseUrl;
    admin = await signInStaff(baseUrl, adminEmail, adminPassword);
    const runId = randomUUID().slice(0, 8);
    customers = await mapLimit(Array.from({ length: options.customers ?? 16 }, (_, i) => i), 4, (i) => signUpCustomer(baseUrl, i, runId));
    await mapLimit(customers, 4, async (customer, i) => {
      await expectStatus(
        call(baseUrl, 'PUT', `/user/admin/account/${customer.id}`, { token: admin, body: { savings: 0, checking: INITIAL_DOLLARS, number: customer.accountNumber } }),
        200,
        'balances',
      );
      await expectStatus(
        call(baseUrl, 'PUT', `/user/admin/${customer.id}`, {
          token: admin,
          body: { firstName: `Bench${i}`, lastName: 'Customer', email: customer.email, phone: '555-0100', location: { address: 'x', state: 'NY' }, verificationStatus: 'verified', isBlocked: false, paymentPin: BENCH_PIN },
        }),
        200,
        'pin',
      );
    });
  } catch (error) {
    await bank?.stop(5_000).catch(() => undefined);
    await pool.end().catch(() => undefined);
    await Promise.all([postgres.destroy(), redis.destroy()]);
    if (!process.env.FAULTS_KEEP_DATA) rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
  const faultBank: FaultBank<FaultPostgres> = {
    postgres,
    redis,
    databaseUrl,
    pool,
    port,
    bank,
    env,
    customers,
    admin,
    async restart(cmd = command, extraEnv = {}) {
      faultBank.bank = await launch(cmd, extraEnv);
      return faultBank.bank;
    },
    async destroy() {
      await faultBank.bank.stop(5_000).catch(() => undefined);
      await pool.end().catch(() => undefined);
      await Promise.all([postgres.destroy(), redis.destroy()]);
      if (!process.env.FAULTS_KEEP_DATA) rmSync(dataDir, { recursive: true, force: true });
    },
  };
  return faultBank;
}

export interface Attempt {
  readonly at: number;
  readonly status: number;
  readonly transferId?: string;
  readonly key: string;
  readonly error?: string;
}

/**
 * Internal transfers of $1 between random customers at `inFlight`, until `stop()`; every answer recorded. A request
 * that got no HTTP answer (a refused or reset connection) is retried once with the same Idempotency-Key.
 */
export function transferLoad(baseUrl: () => string, customers: readonly BenchCustomer[], inFlight: number) {
  const attempts: Attempt[] = [];
  let running = true;
  const once = async (payer: BenchCustomer, payee: BenchCustomer, key: string): Promise<Attempt> => {
    try {
      const answer = await call<{ data?: { transferId?: string } }>(baseUrl(), 'POST', '/transaction/transfer', {
        token: payer.token,
        headers: { 'idempotency-key': key },
        body: { from: 'checking', amount: 1, accountNumber: payee.accountNumber, bankName: 'Summit Bank', routingNumber: '102000021', accountType: 'checking', to: 'x', paymentPin: BENCH_PIN },
      });
      return { at: Date.now(), status: answer.status, key, ...(answer.body?.data?.transferId ? { transferId: answer.body.data.transferId } : {}) };
    } catch (error) {
      return { at: Date.now(), status: 0, key, error: (error as Error).cause ? String((error as { cause: unknown }).cause) : (error as Error).message };
    }
  };
  const done = Promise.all(
    Array.from({ length: inFlight }, async (_, worker) => {
      let n = 0;
      while (running) {
        const payer = customers[(worker * 7 + n) % customers.length]!;
        const payee = customers[(worker * 7 + n + 1) % customers.length]!;
        n += 1;
        const key = randomUUID();
        let attempt = await once(payer, payee, key);
        if (attempt.status === 0) {
          attempts.push(attempt);
          await new Promise((resolve) => setTimeout(resolve, 100));
          attempt = await once(payer, payee, key);
        }
        attempts.push(attempt);
        if (attempt.status === 503 || attempt.status === 0) await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }),
  );
  return {
    attempts,
    async stop(): Promise<Attempt[]> {
      running = false;
      await done;
      return attempts;
    },
  };
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Waits until the bank is quiet (bench/lib/quietState.ts), while the server may still be coming back. */
export async function waitForQuiet(pool: pg.Pool, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last: string;
  for (;;) {
    try {
      const state = await readQuietState(pool);
      if (state.quiet) return;
      last = state.text;
    } catch (error) {
      // the server may still be coming back
      last = `the server answered ${(error as Error).message}`;
    }
    if (Date.now() > deadline) throw new Error(`The bank did not settle in ${timeoutMs} ms: ${last}`);
    await sleep(100);
  }
}

/** Checks the record after the faults: every 201 transfer credited once, money conserved, the read models equal the replay. */
export async function checkRecord(bank: Pick<FaultBank<FaultPostgres>, 'pool'>, attempts: readonly Attempt[]): Promise<{ credited201: number; total: string }> {
  const ids = [...new Set(attempts.flatMap((a) => (a.status === 201 && a.transferId ? [a.transferId] : [])))];
  const { rows: notCredited } = await bank.pool.query<{ n: string }>(
    `SELECT count(*)::text AS n FROM unnest($1::uuid[]) AS t(id) LEFT JOIN rm.transfers tr ON tr.id = t.id WHERE tr.status IS DISTINCT FROM 'credited'`,
    [ids],
  );
  if (notCredited[0]!.n !== '0') throw new Error(`${notCredited[0]!.n} transfers answered 201 but are not credited`);
  const { rows: twice } = await bank.pool.query<{ n: string }>(
    `SELECT count(*)::text AS n FROM (SELECT data->>'transactionId' FROM eventstore.events WHERE type = 'AccountCredited' GROUP BY 1 HAVING count(*) > 1) AS d`,
  );
  if (twice[0]!.n !== '0') throw new Error(`${twice[0]!.n} credits applied twice`);
  const { rows: total } = await bank.pool.query<{ total: string }>('SELECT sum(savings_cents + checking_cents)::text AS total FROM rm.accounts');
  return { credited201: ids.length, total: total[0]!.total };
}
