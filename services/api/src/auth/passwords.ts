import bcrypt from 'bcryptjs';

/** bcrypt cost for passwords and payment pins; never below 10. */
export const MIN_BCRYPT_COST = 10;

export function hashSecret(secret: string, cost = MIN_BCRYPT_COST): Promise<string> {
  return bcrypt.hash(secret, Math.max(MIN_BCRYPT_COST, cost));
}

export function verifySecret(secret: string, hash: string): Promise<boolean> {
  return bcrypt.compare(secret, hash);
}

/**
 * A hash of nothing anyone knows, compared against when the e-mail is unknown, so that a sign-in takes as long
 * whether or not the account exists.
 */
let decoyHash: Promise<string> | undefined;

export async function verifyAgainstDecoy(secret: string): Promise<false> {
  decoyHash ??= bcrypt.hash(`decoy-${Math.random()}`, MIN_BCRYPT_COST);
  await bcrypt.compare(secret, await decoyHash);
  return false;
}
