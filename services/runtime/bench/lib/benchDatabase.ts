import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';

/** The server the benchmarks create their databases on (its `postgres` database). */
export const BENCH_SERVER_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

async function onServer<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: BENCH_SERVER_URL });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

export async function createBenchDatabase(name: string): Promise<{ name: string; url: string }> {
  await onServer((client) => client.query(`CREATE DATABASE "${name}"`));
  const url = new URL(BENCH_SERVER_URL);
  url.pathname = `/${name}`;
  return { name, url: url.toString() };
}

export async function dropBenchDatabase(name: string): Promise<void> {
  await onServer((client) => client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`)).catch((error: unknown) => {
    console.error(`could not drop ${name}: ${(error as Error).message}`);
  });
}

function formatted(xid: string, position: string): string {
  return `${xid.padStart(20, '0')}:${position.padStart(20, '0')}`;
}

/**
 * Waits until the projector has applied every committed event and no transfer is unfinished in the read models;
 * resolves with how long that took. Every committed event, not only those below the server's visibility fence: on a
 * shared server another database's long transaction holds the fence, and the events above it are not applied yet
 * (a check made then counts money the projector has not seen).
 */
export async function waitForQuiet(pool: pg.Pool, timeoutMs: number): Promise<number> {
  const started = Date.now();
  for (;;) {
    const { rows } = await pool.query<{ head: string | null; applied: string | null; process: string | null; open: string }>(`
      SELECT (SELECT transaction_id::text || ':' || global_position FROM eventstore.events
               ORDER BY transaction_id DESC, global_position DESC LIMIT 1) AS head,
             (SELECT position FROM rm.checkpoint WHERE name = 'main') AS applied,
             (SELECT position FROM process.checkpoints WHERE name = 'transfers') AS process,
             (SELECT count(*) FROM rm.transfers WHERE status IN ('requested', 'debited', 'sent'))::text AS open`);
    const row = rows[0]!;
    const [xid, position] = (row.head ?? '0:0').split(':');
    const head = formatted(xid!, position!);
    // The transfer process's checkpoint too: a transfer answered pending has no rm.transfers row until the process
    // records its request, and the process's checkpoint never passes a debit whose transfer is unfinished.
    if (row.applied !== null && row.applied >= head && row.process !== null && row.process >= head && row.open === '0') return Date.now() - started;
    if (Date.now() - started > timeoutMs) throw new Error(`Not quiet after ${timeoutMs} ms: head ${head}, applied ${row.applied}, transfer process at ${row.process}, open transfers ${row.open}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Replaces (or adds) a benchmark's own section of docs/benchmarks.md, between markers named after it. */
export function writeBenchSection(repoRoot: string, name: string, body: string): void {
  const file = path.join(repoRoot, 'docs/benchmarks.md');
  const start = `<!-- bench:${name}:start -->`;
  const end = `<!-- bench:${name}:end -->`;
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    text = '# Benchmarks\n\nEvery figure here was measured on the machine named beside it; compare figures only with a reference from the same run.\n';
  }
  const section = `${start}\n${body.trim()}\n${end}`;
  const from = text.indexOf(start);
  const to = text.indexOf(end);
  const next = from >= 0 && to > from ? `${text.slice(0, from)}${section}${text.slice(to + end.length)}` : `${text.trimEnd()}\n\n${section}\n`;
  writeFileSync(file, next);
}
