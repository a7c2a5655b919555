import type pg from 'pg';
import { NOTICE_KINDS, OPTIONAL_NOTICE_KINDS, SECURITY_NOTICE_KINDS, type MessageKind, type NoticeKind } from './messageKinds';

export interface NotificationSetting {
  readonly kind: NoticeKind;
  readonly enabled: boolean;
  readonly locked: boolean;
}

export const SECURITY_NOTICES_LOCKED_MESSAGE = 'Security notices cannot be turned off';

/** Every notice kind with whether it is on for the user: the optional ones on unless turned off, security ones always. */
export async function notificationSettings(pool: pg.Pool, userId: string): Promise<NotificationSetting[]> {
  const { rows } = await pool.query<{ kind: string; enabled: boolean }>('SELECT kind, enabled FROM mail.preferences WHERE user_id = $1', [userId]);
  const chosen = new Map(rows.map((row) => [row.kind, row.enabled]));
  return [
    ...OPTIONAL_NOTICE_KINDS.map((kind) => ({ kind, enabled: chosen.get(kind) ?? true, locked: false })),
    ...SECURITY_NOTICE_KINDS.map((kind) => ({ kind, enabled: true, locked: true })),
  ];
}

export async function saveNotificationSettings(pool: pg.Pool, userId: string, changes: ReadonlyMap<NoticeKind, boolean>): Promise<void> {
  const optional = [...changes].filter(([kind]) => (OPTIONAL_NOTICE_KINDS as readonly string[]).includes(kind));
  if (optional.length === 0) return;
  await pool.query(
    `INSERT INTO mail.preferences (user_id, kind, enabled)
     SELECT $1, kind, enabled FROM unnest($2::text[], $3::boolean[]) AS c(kind, enabled)
     ON CONFLICT (user_id, kind) DO UPDATE SET enabled = EXCLUDED.enabled`,
    [userId, optional.map(([kind]) => kind), optional.map(([, enabled]) => enabled)],
  );
}

/** Whether a message of this kind goes to the user: anything but an optional notice turned off. */
export async function wantsMessage(pool: pg.Pool, userId: string, kind: MessageKind): Promise<boolean> {
  if (!(NOTICE_KINDS as readonly string[]).includes(kind) || (SECURITY_NOTICE_KINDS as readonly string[]).includes(kind)) return true;
  const { rows } = await pool.query<{ enabled: boolean }>('SELECT enabled FROM mail.preferences WHERE user_id = $1 AND kind = $2', [userId, kind]);
  return rows[0]?.enabled ?? true;
}
