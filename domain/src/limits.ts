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
