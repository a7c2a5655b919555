import { createHash } from 'node:crypto';
import { deterministicId } from '@bank/commands';
import { inTransaction } from '@bank/platform';
import type pg from 'pg';
import type { ImageType } from './imageType';

/**
 * Uploaded images, in PostgreSQL (schema `files`, created at start-up): each distinct content is stored once
 * (unique sha256); `files.file_access` records every user who uploaded it, so the same picture uploaded by two
 * customers is readable by both and by nobody else (staff excepted). Events carry only the id and the hash.
 * A user's access ends when the user's current state no longer refers to the file (releaseUnreferencedFiles), and a
 * file nobody has access to any more is deleted.
 */
export const FILES_SCHEMA_SQL = `
CREATE SCHEMA IF NOT EXISTS files;
CREATE TABLE IF NOT EXISTS files.files (
  id uuid PRIMARY KEY,
  sha256 text NOT NULL UNIQUE,
  mime text NOT NULL,
  size integer NOT NULL,
  bytes bytea NOT NULL,
  owner_id uuid NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE TABLE IF NOT EXISTS files.file_access (
  file_id uuid NOT NULL REFERENCES files.files (id),
  user_id uuid NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (file_id, user_id)
);
`;

/** Creates the schema when missing (idempotent; concurrent start-ups serialised by an advisory lock). */
export async function ensureFileSchema(pool: pg.Pool): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query("SELECT pg_advisory_lock(hashtext('bank.files.schema'))");
    await client.query(FILES_SCHEMA_SQL);
  } finally {
    await client.query("SELECT pg_advisory_unlock(hashtext('bank.files.schema'))").catch(() => undefined);
    client.release();
  }
}

export interface StoredFile {
  readonly fileId: string;
  readonly sha256: string;
  readonly sizeBytes: number;
}

export function sha256Hex(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** Files are content-addressed: the id is derived from the hash, so the same bytes always get the same id. */
export function fileIdOf(sha256: string): string {
  return deterministicId(`file:${sha256}`);
}

/** Runs `work` in a transaction holding the lock of one file: granting and ending access to it are serialised. */
async function withFileLock<T>(pool: pg.Pool, fileId: string, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  return inTransaction(pool, async (client) => {
    // Another user may be storing the same bytes while this one's access ends: without the lock the file could be
    // deleted between their INSERT of the file (a no-op, it exists) and their INSERT of the access row.
    await client.query("SELECT pg_advisory_xact_lock(hashtext('bank.files'), hashtext($1))", [fileId]);
    return work(client);
  });
}

/** Stores the bytes (once per content) and grants `ownerId` access; returns the file's id and hash. */
export async function saveFile(pool: pg.Pool, input: { bytes: Buffer; mime: ImageType; ownerId: string }): Promise<StoredFile> {
  const sha256 = sha256Hex(input.bytes);
  const fileId = fileIdOf(sha256);
  await withFileLock(pool, fileId, async (client) => {
    await client.query(
      `INSERT INTO files.files (id, sha256, mime, size, bytes, owner_id) VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT DO NOTHING`,
      [fileId, sha256, input.mime, input.bytes.length, input.bytes, input.ownerId],
    );
    await client.query('INSERT INTO files.file_access (file_id, user_id) VALUES ($1, $2) ON CONFLICT DO NOTHING', [fileId, input.ownerId]);
  });
  return { fileId, sha256, sizeBytes: input.bytes.length };
}

/**
 * Ends `userId`'s access to every file of theirs that `referenced` (the ids the user's current state refers to) does
 * not name, and deletes each such file that no other user has uploaded. Returns the ids of the deleted files. The
 * caller holds the user's upload lock (uploadLock.ts), so no upload of this user is between storing a file and
 * recording it.
 */
export async function releaseUnreferencedFiles(pool: pg.Pool, userId: string, referenced: readonly string[]): Promise<string[]> {
  const { rows } = await pool.query<{ file_id: string }>('SELECT file_id FROM files.file_access WHERE user_id = $1 AND NOT (file_id = ANY($2::uuid[]))', [
    userId,
    [...referenced],
  ]);
  const deleted: string[] = [];
  for (const { file_id: fileId } of rows) {
    await withFileLock(pool, fileId, async (client) => {
      await client.query('DELETE FROM files.file_access WHERE file_id = $1 AND user_id = $2', [fileId, userId]);
      const gone = await client.query(
        'DELETE FROM files.files f WHERE f.id = $1 AND NOT EXISTS (SELECT 1 FROM files.file_access x WHERE x.file_id = f.id) RETURNING f.id',
        [fileId],
      );
      if (gone.rowCount) deleted.push(fileId);
    });
  }
  return deleted;
}

export interface FileInfo {
  readonly mime: string;
  readonly sha256: string;
  /** Whether the given user uploaded it. */
  readonly uploadedByUser: boolean;
}

/** What is known about a file without reading its bytes. */
export async function fileInfo(pool: pg.Pool, fileId: string, userId: string): Promise<FileInfo | undefined> {
  const { rows } = await pool.query<{ mime: string; sha256: string; uploaded: boolean }>(
    `SELECT f.mime, f.sha256, EXISTS (SELECT 1 FROM files.file_access x WHERE x.file_id = f.id AND x.user_id = $2) AS uploaded
     FROM files.files f WHERE f.id = $1`,
    [fileId, userId],
  );
  const row = rows[0];
  return row ? { mime: row.mime, sha256: row.sha256, uploadedByUser: row.uploaded } : undefined;
}

export async function readFileBytes(pool: pg.Pool, fileId: string): Promise<Buffer | undefined> {
  const { rows } = await pool.query<{ bytes: Buffer }>('SELECT bytes FROM files.files WHERE id = $1', [fileId]);
  return rows[0]?.bytes;
}
