import { runDdl } from '@bank/platform';
import type pg from 'pg';

/**
 * The mail's tables (schema `mail`, beside the read models):
 *   messages       the outbox and the sending queue: one row per message (id = `<kind>.<source id>`), what it says
 *                  (no secret), whether it went, when it is next due and how often it was tried
 *   tokens         one-time links: only the SHA-256 of the token, its expiry, use and wrong codes (a table, not an
 *                  event: a hash that dies in 30 minutes has no place in a log kept for ever; the password change
 *                  it leads to is an event)
 *   confirmations  the addresses a user confirmed (user.emailVerified: the current address is among them)
 *   preferences    the notices a customer turned off or on again (no row: on)
 *   checkpoint     the mail reactor's position in the log
 */
export async function ensureMailSchema(pool: pg.Pool): Promise<void> {
  await runDdl(pool, 'mail-schema', `
    CREATE SCHEMA IF NOT EXISTS mail;
    CREATE TABLE IF NOT EXISTS mail.messages (
      id          text PRIMARY KEY,
      kind        text NOT NULL,
      user_id     uuid,
      recipient   text NOT NULL,
      data        jsonb NOT NULL,
      status      text NOT NULL DEFAULT 'queued',
      error       text,
      created_at  timestamptz NOT NULL DEFAULT now(),
      sent_at     timestamptz
    );
    -- The outbox is the queue (mailSender.ts): a queued row is sent once due; a sender's claim moves due_at past its
    -- lease, a temporary failure past its backoff. attempts counts the claims.
    -- (Added to an older table once: an ALTER on every start would lock the table each time.)
    DO $$ BEGIN
      IF NOT EXISTS (SELECT 1 FROM information_schema.columns WHERE table_schema = 'mail' AND table_name = 'messages' AND column_name = 'due_at') THEN
        ALTER TABLE mail.messages ADD COLUMN attempts integer NOT NULL DEFAULT 0, ADD COLUMN due_at timestamptz NOT NULL DEFAULT now();
      END IF;
    END $$;
    CREATE INDEX IF NOT EXISTS messages_due ON mail.messages (due_at) WHERE status = 'queued';
    CREATE INDEX IF NOT EXISTS messages_failed ON mail.messages (created_at) WHERE status = 'failed';
    CREATE TABLE IF NOT EXISTS mail.tokens (
      message_id  text PRIMARY KEY,
      kind        text NOT NULL,
      user_id     uuid NOT NULL,
      email       text NOT NULL,
      token_hash  text NOT NULL UNIQUE,
      expires_at  timestamptz NOT NULL,
      used_at     timestamptz,
      wrong_codes integer NOT NULL DEFAULT 0,
      created_at  timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX IF NOT EXISTS tokens_user ON mail.tokens (user_id, kind);
    CREATE TABLE IF NOT EXISTS mail.confirmations (
      user_id      uuid NOT NULL,
      email        text NOT NULL,
      confirmed_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (user_id, email)
    );
    CREATE TABLE IF NOT EXISTS mail.preferences (
      user_id  uuid NOT NULL,
      kind     text NOT NULL,
      enabled  boolean NOT NULL,
      PRIMARY KEY (user_id, kind)
    );
    CREATE TABLE IF NOT EXISTS mail.checkpoint (
      name        text PRIMARY KEY,
      position    text NOT NULL,
      updated_at  timestamptz NOT NULL DEFAULT now()
    );`);
}
