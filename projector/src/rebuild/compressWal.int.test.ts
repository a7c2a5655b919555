import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProjectorTestDatabase, type ProjectorTestDatabase } from '../testing/projectorTestDatabase';
import { compressWal } from './bulkSchema';

let db: ProjectorTestDatabase;

beforeAll(async () => {
  db = await createProjectorTestDatabase('projector_compress_wal');
  await db.pool.query(`DO $$ BEGIN CREATE ROLE bank_rebuild_plain NOLOGIN; EXCEPTION WHEN duplicate_object THEN NULL; END $$`);
});
afterAll(async () => {
  await db.close();
});

describe("the index builds' WAL compression", () => {
  it('is set for the session by a role that may set it, and written into less WAL', async () => {
    const client = await db.pool.connect();
    try {
      const before = (await client.query<{ wal_compression: string }>('SHOW wal_compression')).rows[0]!.wal_compression;
      const method = await compressWal(client);
      expect(method).toMatch(/^(lz4|pglz)$/);
      expect((await client.query('SHOW wal_compression')).rows[0].wal_compression).toBe(method);

      // The same index built twice on a logged table, without and with: its WAL is several times smaller. The keys
      // are the journal's: an account key and a position.
      await client.query(
        `CREATE TABLE public.wal_probe AS SELECT (ARRAY['customer-checking', 'customer-savings', 'transfers-in-transit'])[g % 3 + 1] AS t,
           lpad((g / 3)::text, 20, '0') || ':' || lpad(g::text, 20, '0') AS n FROM generate_series(1, 50000) AS g`,
      );
      const walOf = async (setting: string) => {
        await client.query(`SET wal_compression = ${setting}`);
        const start = (await client.query('SELECT pg_current_wal_insert_lsn() AS lsn')).rows[0].lsn;
        await client.query(`CREATE INDEX wal_probe_${setting} ON public.wal_probe (t, n)`);
        return Number((await client.query('SELECT pg_wal_lsn_diff(pg_current_wal_insert_lsn(), $1) AS bytes', [start])).rows[0].bytes);
      };
      const plain = await walOf('off');
      const compressed = await walOf(method!);
      expect(compressed).toBeLessThan(plain / 2);
      await client.query(`DROP TABLE public.wal_probe; SET wal_compression = ${before}`);
    } finally {
      client.release();
    }
  });

  it("is left as the server has it for a role that may not set it, the session still usable", async () => {
    const client = await db.pool.connect();
    try {
      const before = (await client.query('SHOW wal_compression')).rows[0].wal_compression;
      await client.query('SET ROLE bank_rebuild_plain');
      expect(await compressWal(client)).toBeNull();
      expect((await client.query('SHOW wal_compression')).rows[0].wal_compression).toBe(before);
      expect((await client.query('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
    } finally {
      await client.query('RESET ROLE');
      client.release();
    }
  });
});
