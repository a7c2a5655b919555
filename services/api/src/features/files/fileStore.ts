import { createHash } from 'node:crypto';
import { deterministicId } from '@bank/core';
import type pg from 'pg';
import type { ImageType } from './imageType';

/**
 * Uploaded images, in PostgreSQL (schema `files`, created at start-up): each distinct content is stored once
 * (unique sha256); `files.file_access` records every user who uploaded it, so the same picture uploaded by two
 * customers is readable by both and by nobody else (staff excepted). Events carry only the id and the hash.
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

/** Stores the bytes (once per content) and grants `ownerId` access; returns the file's id and hash. */
export async function saveFile(pool: pg.Pool, input: { bytes: Buffer; mime: ImageType; ownerId: string }): Promise<StoredFile> {
  const sha256 = sha256Hex(input.bytes);
  const fileId = fileIdOf(sha256);
  await pool.query(
    `INSERT INTO files.files (id, sha256, mime, size, bytes, owner_id) VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT DO NOTHING`,
    [fileId, sha256, input.mime, input.bytes.length, input.bytes, input.ownerId],
  );
  await pool.query('INSERT INTO files.file_access (file_id, user_id) VALUES ($1, $2) ON CONFLICT DO NOTHING', [fileId, input.ownerId]);
  return { fileId, sha256, sizeBytes: input.bytes.length };
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
