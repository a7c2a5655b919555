import { Secret, TOTP } from 'otpauth';
import QRCode from 'qrcode';

/**
 * TOTP (RFC 6238) as authenticator apps expect it: SHA-1, 6 digits, 30-second steps, a 160-bit random secret.
 * A code is accepted in the step before, the current one and the one after (±1, for clock drift and typing time);
 * which step matched is returned so that the caller can refuse a code of a step already accepted (no replay).
 */
export const TOTP_PERIOD_SECONDS = 30;
export const TOTP_DIGITS = 6;
export const TOTP_WINDOW = 1;
export const TOTP_ISSUER = 'Summit Bank';

function totp(secret: string, label = ''): TOTP {
  return new TOTP({ issuer: TOTP_ISSUER, label, algorithm: 'SHA1', digits: TOTP_DIGITS, period: TOTP_PERIOD_SECONDS, secret: Secret.fromBase32(secret) });
}

/** A fresh secret, base32 (what the user may type into an app). */
export function newTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

/** The step a time falls in. */
export function stepAt(time: Date): number {
  return Math.floor(time.getTime() / 1000 / TOTP_PERIOD_SECONDS);
}

/** The step within ±1 of `now` whose code `code` is, or undefined when it is none of them. */
export function matchingStep(secret: string, code: string, now: Date): number | undefined {
  const delta = totp(secret).validate({ token: code, timestamp: now.getTime(), window: TOTP_WINDOW });
  return delta === null ? undefined : stepAt(now) + delta;
}

/** The code of a time (tests, and nothing else, need to compute one). */
export function codeAt(secret: string, time: Date): string {
  return totp(secret).generate({ timestamp: time.getTime() });
}

export interface EnrolmentPicture {
  /** The secret as base32 text, for typing into an app. */
  readonly secret: string;
  readonly otpauthUri: string;
  /** A PNG data URL of the QR code of otpauthUri. */
  readonly qrCode: string;
}

/** What the enrolment screen shows: the key as text, its otpauth:// URI and the QR code of it. */
export async function enrolmentPicture(secret: string, accountName: string): Promise<EnrolmentPicture> {
  const otpauthUri = totp(secret, accountName).toString();
  const qrCode = await QRCode.toDataURL(otpauthUri, { errorCorrectionLevel: 'M', margin: 2, width: 240 });
  return { secret, otpauthUri, qrCode };
}
