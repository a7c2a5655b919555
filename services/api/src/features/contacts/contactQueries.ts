import type pg from 'pg';
import type { ContactJson } from './contactShape';

interface ContactRow {
  readonly id: string;
  readonly name: string;
  readonly email: string;
  readonly phone: string;
  readonly subject: string;
  readonly message: string;
  readonly created_at: Date;
}

/** The contact messages not deleted, newest first. */
export async function listContacts(pool: pg.Pool): Promise<ContactJson[]> {
  const { rows } = await pool.query<ContactRow>(
    'SELECT id, name, email, phone, subject, message, created_at FROM rm.contacts WHERE deleted_at IS NULL ORDER BY created_at DESC, id',
  );
  return rows.map((row) => ({
    _id: row.id,
    name: row.name,
    email: row.email,
    phone: row.phone,
    subject: row.subject,
    message: row.message,
    createdAt: row.created_at.toISOString(),
  }));
}
