import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { BAD_CURSOR_MESSAGE, cursorInstant, decodeCursor, encodeCursor, pageOf } from './keysetPage';
import { HttpError } from './httpErrors';

const key = z.object({ at: cursorInstant, id: z.string() });

function refusal(text: string): HttpError {
  try {
    decodeCursor(key, text);
  } catch (error) {
    if (error instanceof HttpError) return error;
    throw error;
  }
  throw new Error(`${text} was accepted`);
}

describe('keyset cursors', () => {
  it('round-trip the key of a row, URL-safe', () => {
    const cursor = encodeCursor({ at: '2026-03-01T10:00:00.123456Z', id: 'a/b+c' });
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodeCursor(key, cursor)).toEqual({ at: '2026-03-01T10:00:00.123456Z', id: 'a/b+c' });
  });

  it('refuse anything else with 400 on the cursor parameter', () => {
    const bad = [
      'a b',
      'x'.repeat(2000),
      Buffer.from('not json').toString('base64url'),
      encodeCursor({ at: '2026-03-01T10:00:00Z', id: 'x' }),
      encodeCursor({ at: '2026-02-30T10:00:00.000000Z', id: 'x' }),
      encodeCursor({ at: '2026-03-01T25:00:00.000000Z', id: 'x' }),
      encodeCursor({ id: 'x' }),
      encodeCursor([1, 2]),
    ];
    for (const text of bad) {
      const error = refusal(text);
      expect(error.status).toBe(400);
      expect(error.errors).toEqual([{ path: 'cursor', message: BAD_CURSOR_MESSAGE }]);
    }
  });
});

describe('pageOf', () => {
  const rows = [1, 2, 3, 4, 5].map((n) => ({ n }));

  it('gives a next cursor, of the last row shown, only when a row beyond the page was read', () => {
    const page = pageOf(rows, 4, (row) => ({ n: row.n }));
    expect(page.rows).toEqual(rows.slice(0, 4));
    expect(JSON.parse(Buffer.from(page.next!, 'base64url').toString('utf8'))).toEqual({ n: 4 });
    expect(pageOf(rows, 5, (row) => row.n)).toEqual({ rows, next: null });
    expect(pageOf([], 5, () => 0)).toEqual({ rows: [], next: null });
  });
});
