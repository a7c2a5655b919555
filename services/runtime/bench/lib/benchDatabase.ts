import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { readQuietState } from './quietState';

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

/** Waits until the bank is quiet (quietState.ts); resolves with how long that took. */
export async function waitForQuiet(pool: pg.Pool, timeoutMs: number): Promise<number> {
  const started = Date.now();
  for (;;) {
    const state = await readQuietState(pool);
    if (state.quiet) return Date.now() - started;
    if (Date.now() - started > timeoutMs) throw new Error(`Not quiet after ${timeoutMs} ms: ${state.text}`);
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
