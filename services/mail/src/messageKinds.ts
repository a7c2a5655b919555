/**
 * Every message the bank sends. The notice kinds a customer may turn off (on by default), and the security notices
 * that are always sent (GET /user/notifications shows them locked).
 */
export const OPTIONAL_NOTICE_KINDS = ['moneyReceived', 'transferReturned', 'standingOrderFailed', 'interestPaid', 'statementReady'] as const;
export const SECURITY_NOTICE_KINDS = ['newDevice', 'passwordChanged', 'secondFactorChanged'] as const;
export const NOTICE_KINDS = [...OPTIONAL_NOTICE_KINDS, ...SECURITY_NOTICE_KINDS] as const;

export type OptionalNoticeKind = (typeof OPTIONAL_NOTICE_KINDS)[number];
export type SecurityNoticeKind = (typeof SECURITY_NOTICE_KINDS)[number];
export type NoticeKind = (typeof NOTICE_KINDS)[number];

/** Messages that are not notices: a link the customer asked for (or sign-up sent), and the old address's notice. */
export const LINK_KINDS = ['passwordReset', 'verifyEmail', 'emailChanged'] as const;
export type LinkKind = (typeof LINK_KINDS)[number];

export type MessageKind = NoticeKind | LinkKind;

export function isNoticeKind(value: string): value is NoticeKind {
  return (NOTICE_KINDS as readonly string[]).includes(value);
}

export function isSecurityKind(kind: MessageKind): boolean {
  return (SECURITY_NOTICE_KINDS as readonly string[]).includes(kind) || (LINK_KINDS as readonly string[]).includes(kind);
}

/** The kinds whose message carries a one-time link; its token is made when the message is sent. */
export const TOKEN_KINDS: Partial<Record<MessageKind, { readonly path: string; readonly ttlMs: number }>> = {
  passwordReset: { path: '/reset-password', ttlMs: 30 * 60_000 },
  verifyEmail: { path: '/verify-email', ttlMs: 7 * 24 * 60 * 60_000 },
};

/**
 * A message's id, unique to what caused it and its kind: `<kind>.<eventId>` (with the recipient's role when one
 * event sends two messages of a kind). It is the outbox row's id (a message is recorded once) and, with the sending
 * host, its Message-ID header.
 */
export function messageIdOf(kind: MessageKind, sourceId: string): string {
  return `${kind}.${sourceId}`;
}
