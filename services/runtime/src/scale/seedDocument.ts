/**
 * The one document every generated verification shows (a 1×1 PNG), stored once in the bank's file store like an
 * upload, and readable by every customer who "submitted" it (files.file_access), granted in bulk.
 */
import { ensureFileSchema, fileIdOf, saveFile, sha256Hex } from '@bank/api';
import type { FileUpload } from '@bank/domain';
import type pg from 'pg';

const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');

export function seedDocument(): FileUpload {
  const sha256 = sha256Hex(PNG);
  return { fileId: fileIdOf(sha256), sha256, sizeBytes: PNG.length };
}

/** Stores the document (once) and gives each of `ownerIds` access to it; idempotent. */
export async function saveSeedDocument(pool: pg.Pool, ownerIds: readonly string[]): Promise<void> {
  if (ownerIds.length === 0) return;
  await ensureFileSchema(pool);
  const { fileId } = await saveFile(pool, { bytes: PNG, mime: 'image/png', ownerId: ownerIds[0]! });
  for (let start = 0; start < ownerIds.length; start += 10_000) {
    await pool.query('INSERT INTO files.file_access (file_id, user_id) SELECT $1, unnest($2::uuid[]) ON CONFLICT DO NOTHING', [fileId, ownerIds.slice(start, start + 10_000)]);
  }
}
