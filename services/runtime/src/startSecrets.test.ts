import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

/** Runs the bank (services/runtime/src/main.ts) with exactly this environment and returns its exit code and output. */
function runMain(env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'services/runtime/src/main.ts'], {
      cwd: root,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', LOG_LEVEL: 'info', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    child.on('error', reject);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

// Nothing listens there: a start that gets past its keys stops at the database, without touching the shared one.
const NO_DATABASE = 'postgres://postgres@127.0.0.1:9/bank';

describe('starting the bank (a real process)', () => {
  it('in production, stops before connecting to anything when the keys are not in the environment, naming each', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'bank-main-'));
    const { code, output } = await runMain({ NODE_ENV: 'production', DATA_DIR: dataDir, DATABASE_URL: NO_DATABASE });
    expect(code).toBe(1);
    for (const variable of ['JWT_KEYS (or JWT_SECRET)', 'IDEMPOTENCY_KEYS', 'TOTP_KEYS', 'PIN_KEYS', 'CHAIN_KEYS', 'CHECKPOINT_KEYS']) {
      expect(output).toContain(`${variable}: required in production`);
    }
    expect(() => statSync(path.join(dataDir, 'keys'))).toThrow();
  });

  it('in production, refuses to start without the payment-pin keys, naming PIN_KEYS', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'bank-main-'));
    const jwt = `k1:${Buffer.alloc(32, 1).toString('base64')}`;
    const idempotency = `k1:${Buffer.alloc(32, 2).toString('base64')}`;
    const { code, output } = await runMain({ NODE_ENV: 'production', DATA_DIR: dataDir, DATABASE_URL: NO_DATABASE, JWT_KEYS: jwt, IDEMPOTENCY_KEYS: idempotency });
    expect(code).toBe(1);
    expect(output).toContain('PIN_KEYS: required in production');
  });

  it('without JWT_SECRET outside production, creates a private key file in DATA_DIR and says so', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'bank-main-'));
    const { output } = await runMain({ NODE_ENV: 'development', DATA_DIR: dataDir, DATABASE_URL: NO_DATABASE });
    const file = path.join(dataDir, 'keys', 'jwt.json');
    expect(existsSync(file), output).toBe(true);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(output).toContain(`Created a new key file ${file} (mode 0600) because JWT_KEYS is not set`);
  });
});
