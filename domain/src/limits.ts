/**
 * The domain's plain limits, in a module without zod: the web app imports them statically (`@bank/domain/limits`)
 * for hints and quick checks, while the schemas that apply them load with the forms that need them.
 */
export const PASSWORD_MIN_LENGTH = 6;
/** Staff (admin, auditor) passwords are longer. */
export const STAFF_PASSWORD_MIN_LENGTH = 12;
/** bcrypt reads at most 72 bytes: a longer password is refused rather than silently cut. */
export const PASSWORD_MAX_BYTES = 72;
/** 10 MB = 10 × 1024 × 1024 bytes of decoded file; a file of exactly this size is accepted. */
export const MAX_FILE_BYTES = 10 * 1024 * 1024;
/** Minimum transfer amount: 1 dollar. */
export const MIN_TRANSFER_CENTS = 100;
export const TRANSFER_MINIMUM_MESSAGE = 'Amount must be at least 1';
/** A routing number, when given, has exactly this many digits and passes the ABA check digit (ach/routingNumber.ts). */
export const ROUTING_NUMBER_DIGITS = 9;
/** The recipient look-up runs once the account number has this many digits (a whole account number of this bank). */
export const RECIPIENT_LOOKUP_DIGITS = 10;
/** A payment pin: exactly 6 digits (stored only as a hash). */
export const PAYMENT_PIN_PATTERN = /^\d{6}$/;
export const PAYMENT_PIN_MESSAGE = 'Payment pin must be 6 digits';

/** The most characters of a staff member's reason (balance edits, postings), kept on the journal entry. */
export const MAX_REASON_LENGTH = 500;
