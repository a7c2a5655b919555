import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { repoRoot } from './paths';

const run = promisify(execFile);

/**
 * Creates a staff user the real way, with the CLI `npm run user:create -- --role R --email E --password P`
 * (services/api/src/cli/userCreate.ts), against the server's database (`env` is the environment the server got),
 * then waits until the running server signs them in (its projector has put them in the read models).
 */
export async function createStaffUser(
  baseUrl: string,
  env: Record<string, string>,
  user: { role: 'admin' | 'auditor'; email: string; password: string },
): Promise<void> {
  try {
    await run('npx', ['tsx', 'services/api/src/cli/userCreate.ts', '--role', user.role, '--email', user.email, '--password', user.password], {
      cwd: repoRoot,
      env: { ...process.env, ...env },
      timeout: 60_000,
    });
  } catch (error) {
    const stderr = (error as { stderr?: string }).stderr ?? '';
    throw new Error(`user:create --role ${user.role} --email ${user.email} failed: ${stderr.trim() || String(error)}`, { cause: error });
  }

  // Failed sign-ins are rate limited (10 per e-mail per 15 minutes): a few attempts with growing pauses.
  const pauses = [100, 250, 500, 1000, 1500, 2000, 2500, 3000];
  let last = '';
  for (const pause of [0, ...pauses]) {
    if (pause) await new Promise((resolve) => setTimeout(resolve, pause));
    const response = await fetch(`${baseUrl}/api/auth/signin`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
      body: JSON.stringify({ email: user.email, password: user.password }),
    });
    if (response.ok) return;
    last = `${response.status} ${await response.text()}`;
  }
  throw new Error(`The ${user.role} ${user.email} could not sign in after user:create (${last})`);
}
