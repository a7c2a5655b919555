import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';

const run = promisify(execFile);

/** The pgbench script of the floor: every write of one internal transfer in one transaction (see its header). */
export const FLOOR_SCRIPT = path.resolve(import.meta.dirname, '../floor/transferFloor.sql');

export interface FloorOptions {
  /** The bench's own database, the bank stopped: the floor writes into its event store and read models. */
  readonly databaseUrl: string;
  /** How long pgbench runs (-T); or `transactions`: that many transfers per client (-t). */
  readonly seconds?: number;
  readonly transactions?: number;
  /** pgbench clients: the transfers in flight it is compared with. Default 32. */
  readonly clients?: number;
  /** The shared rows (checkpoints, ledger totals) are written once every `share` transfers, as a batch does. Default 32. */
  readonly share?: number;
}

export interface FloorResult {
  readonly tps: number;
  readonly transactions: number;
  readonly clients: number;
  readonly share: number;
  readonly customers: number;
  /** Empty when the floor wrote what it should: six events, two balances moved, four journal lines per transfer, ... */
  readonly problems: string[];
}

interface Totals {
  events: string;
  transfers: string;
  lines: string;
  money: string;
  trial: string;
  lines_net: string;
}

async function totals(client: pg.ClientBase): Promise<Totals> {
  const { rows } = await client.query<Totals>(`
    SELECT (SELECT count(*) FROM eventstore.events)::text AS events,
           (SELECT count(*) FROM rm.transfers)::text AS transfers,
           (SELECT count(*) FROM rm.journal_lines)::text AS lines,
           (SELECT coalesce(sum(savings_cents + checking_cents), 0) FROM rm.accounts)::text AS money,
           (SELECT coalesce(sum(debits_cents - credits_cents), 0) FROM rm.ledger_accounts)::text AS trial,
           (SELECT coalesce(sum(CASE WHEN side = 'debit' THEN amount_cents ELSE -amount_cents END), 0) FROM rm.journal_lines)::text AS lines_net`);
  return rows[0]!;
}

/**
 * Runs the floor with pgbench on the bench's database (after the HTTP phases, the bank stopped) and checks what it
 * wrote: per transaction six events, one transfer row and four journal lines; money conserved; the trial balance
 * and the journal still zero.
 */
export async function runTransferFloor(options: FloorOptions): Promise<FloorResult> {
  const clients = options.clients ?? 32;
  const share = options.share ?? 32;
  const url = new URL(options.databaseUrl);
  const client = new pg.Client({ connectionString: options.databaseUrl });
  await client.connect();
  try {
    await client.query(`
      CREATE SCHEMA IF NOT EXISTS floor;
      DROP TABLE IF EXISTS floor.customers;
      CREATE TABLE floor.customers AS
        SELECT (row_number() OVER (ORDER BY a.user_id))::int AS n, a.user_id, a.account_number, u.first_name || ' ' || u.last_name AS name
          FROM rm.accounts a JOIN rm.users u ON u.id = a.user_id
         WHERE u.role = 'customer' AND NOT a.is_closed AND a.checking_cents >= 10000;
      ALTER TABLE floor.customers ADD PRIMARY KEY (n);
      ANALYZE floor.customers;`);
    const { rows } = await client.query<{ n: number }>('SELECT count(*)::int AS n FROM floor.customers');
    const customers = rows[0]!.n;
    if (customers < 2) throw new Error(`The floor needs two funded customers, found ${customers}`);
    const before = await totals(client);
    const connection = ['-h', url.hostname, '-p', url.port || '5432', '-U', decodeURIComponent(url.username || 'postgres')];
    const length = options.transactions !== undefined ? ['-t', String(options.transactions)] : ['-T', String(options.seconds ?? 10)];
    const { stdout } = await run(
      'pgbench',
      [...connection, '-n', '-M', 'prepared', '-f', FLOOR_SCRIPT, '-D', `customers=${customers}`, '-D', `share=${share}`, '-c', String(clients), '-j', String(Math.min(2, clients)), ...length, url.pathname.slice(1)],
      { maxBuffer: 16 * 1024 * 1024 },
    );
    const tps = /tps = ([\d.]+) \(without initial connection time\)/.exec(stdout) ?? /tps = ([\d.]+)/.exec(stdout);
    const processed = /number of transactions actually processed: (\d+)/.exec(stdout);
    if (!tps || !processed) throw new Error(`Could not read the floor's tps from pgbench:\n${stdout}`);
    const transactions = Number(processed[1]);
    const after = await totals(client);
    const added = (key: keyof Totals) => BigInt(after[key]) - BigInt(before[key]);
    const n = BigInt(transactions);
    const problems = [
      ...(added('events') === 6n * n ? [] : [`${added('events')} events appended for ${transactions} transfers (6 each expected)`]),
      ...(added('transfers') === n ? [] : [`${added('transfers')} transfer rows for ${transactions} transfers`]),
      ...(added('lines') === 4n * n ? [] : [`${added('lines')} journal lines for ${transactions} transfers (4 each expected)`]),
      ...(after.money === before.money ? [] : [`money not conserved by the floor: ${before.money} → ${after.money} cents`]),
      ...(after.trial === '0' ? [] : [`trial balance after the floor ${after.trial} cents, not zero`]),
      ...(after.lines_net === '0' ? [] : [`journal lines after the floor net ${after.lines_net} cents, not zero`]),
    ];
    return { tps: Number(tps[1]), transactions, clients, share, customers, problems };
  } finally {
    await client.end();
  }
}
