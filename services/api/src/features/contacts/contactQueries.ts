import { isUuid } from '@bank/platform';
import type pg from 'pg';
import { z } from 'zod';
import { cursorInstant, cursorInstantSql } from '../../http/keysetPage';
import type { ContactJson } from './contactShape';

interface ContactRow {
  readonly id: string;
  readonly name: string;
  readonly email: string;
  readonly phone: string;
  readonly subject: string;
  readonly message: string;
  readonly created_at: Date;
  readonly sort_created_at: string;
}

/** The key of the contact list's order (newest first, then id): what its cursor holds. */
export const contactKey = z.object({ createdAt: cursorInstant, id: z.string().refine(isUuid) });
export type ContactKey = z.output<typeof contactKey>;

export interface ContactListRow {
  readonly contact: ContactJson;
  readonly key: ContactKey;
}

/**
 * The contact messages not deleted, newest first: `limit` rows after the key `after`. Keyset on
 * (created_at DESC, id ASC), served by contacts_created_idx (`created_at <= $t` is its index condition).
 */
export async function listContacts(pool: pg.Pool, options: { readonly limit: number; readonly after?: ContactKey | undefined }): Promise<ContactListRow[]> {
  const values: unknown[] = [options.limit];
  let after = '';
  if (options.after) {
    values.push(options.after.createdAt, options.after.id);
    after = 'AND created_at <= $2::timestamptz AND (created_at < $2::timestamptz OR id > $3::uuid)';
  }
  const { rows } = await pool.query<ContactRow>(
    `SELECT id, name, email, phone, subject, message, created_at, ${cursorInstantSql('created_at')} AS sort_created_at
       FROM rm.contacts WHERE deleted_at IS NULL ${after} ORDER BY created_at DESC, id LIMIT $1`,
    values,
  );
  return rows.map((row) => ({
    contact: {
      _id: row.id,
      name: row.name,
      email: row.email,
      phone: row.phone,
      subject: row.subject,
      message: row.message,
      createdAt: row.created_at.toISOString(),
    },
    key: { createdAt: row.sort_created_at, id: row.id },
  }));
}
