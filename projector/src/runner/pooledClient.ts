import type pg from 'pg';

export interface PooledClient {
  readonly client: pg.PoolClient;
  /** The error the connection failed with while checked out, if any (the client is then destroyed on release). */
  readonly failure: Error | undefined;
  /** Back to the pool, or destroyed when it failed or `error` is given. */
  release(error?: Error): void;
}

/**
 * A client checked out of the pool for long work (a batch loop, a bulk load). While checked out, node-postgres
 * emits a lost connection as an 'error' event on the client, which would end the process if nobody listened; here
 * it is recorded, the work's next query fails with it, and the client is destroyed on release.
 */
export async function checkOut(pool: pg.Pool): Promise<PooledClient> {
  const client = await pool.connect();
  let failure: Error | undefined;
  const onError = (error: Error) => {
    failure ??= error;
  };
  client.on('error', onError);
  return {
    client,
    get failure() {
      return failure;
    },
    release(error) {
      client.off('error', onError);
      client.release(error ?? failure);
    },
  };
}
