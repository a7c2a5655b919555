import type pg from 'pg';

/**
 * Fails unless the connection's server accepts writes (is not a hot standby), with an error the API answers 503
 * (isServiceUnavailable: code 25006, as a write there would fail). For the session locks that elect one worker — the
 * leader locks, the COB lock: a standby grants advisory locks too, but they exclude no one on the primary, and
 * during a switchover the one endpoint can lead a new connection to the demoted primary for a moment. A server
 * becomes a standby only by restarting, which ends every connection: one check per connection is enough.
 */
export async function assertWritableServer(client: pg.ClientBase): Promise<void> {
  const { rows } = await client.query<{ standby: boolean }>('SELECT pg_is_in_recovery() AS standby');
  if (rows[0]?.standby) {
    throw Object.assign(new Error('The database server is a standby (in recovery): locks and writes are taken on the primary only'), { code: '25006' });
  }
}
