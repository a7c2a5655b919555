import type pg from 'pg';

/**
 * Customers written straight into rm.users (no events): for tests of the list queries at a size that signing up
 * through the API would make slow. Customer i has e-mail bulk<i>.<label>@example.com, account number <i> padded to
 * 10 digits plus `accountBase`, and every three share one created_at instant (ties for the keyset's id order).
 */
export async function insertBulkCustomers(pool: pg.Pool, count: number, label: string, accountBase = 0): Promise<void> {
  await pool.query(
    `INSERT INTO rm.users (id, first_name, last_name, email, email_lower, phone, address, state, account_number, role,
                           password_hash, created_at, updated_at, last_position)
     SELECT gen_random_uuid(), 'Bulk' || i, $2 || i, 'bulk' || i || '.' || $2 || '@example.com', 'bulk' || i || '.' || $2 || '@example.com',
            '555-' || lpad(i::text, 7, '0'), i || ' Bulk Street', 'TX', lpad(($3 + i)::text, 10, '0'), 'customer',
            'not-a-hash', timestamptz '2026-01-01T00:00:00Z' + (i / 3) * interval '1 second', now(), '0'
       FROM generate_series(1, $1) AS i`,
    [count, label, accountBase],
  );
}
