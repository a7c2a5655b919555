import { z } from 'zod';
import { requiredText } from './fields';

/** A TOTP code as people type it: six digits (spaces ignored). */
export const TOTP_CODE_PATTERN = /^\d{6}$/;

function totpCode(label = 'Code') {
  return z
    .string({ error: `${label} is required` })
    .transform((value) => value.replace(/\s+/g, ''))
    .pipe(z.string().regex(TOTP_CODE_PATTERN, 'Enter the 6-digit code from your authenticator app'));
}

/** A recovery code as printed (`ABCD-EFGH-JKLM-NPQR`): letters and digits, dashes and spaces ignored, any case. */
function recoveryCode() {
  return z
    .string({ error: 'Recovery code must be text' })
    .transform((value) => value.replace(/[\s-]+/g, '').toUpperCase())
    .pipe(z.string().regex(/^[A-Z2-7]{16}$/, 'Enter a recovery code as it was shown (16 letters and digits)'));
}

/** The challenge a sign-in answered (an opaque string). */
const challenge = z.string({ error: 'Challenge is required' }).min(1, 'Challenge is required').max(200, 'Challenge is too long');

/** POST /auth/second-factor/enrol {challenge}. */
export const enrolChallengeInput = z.object({ challenge });

/** POST /auth/second-factor {challenge, code} or {challenge, recoveryCode}: exactly one of the two. */
export const secondFactorSignInInput = z
  .object({ challenge, code: totpCode().optional(), recoveryCode: recoveryCode().optional() })
  .refine((input) => (input.code === undefined) !== (input.recoveryCode === undefined), {
    message: 'Enter either the code from your authenticator app or a recovery code',
    path: ['code'],
  });
export type SecondFactorSignInInput = z.output<typeof secondFactorSignInInput>;

/** POST /auth/second-factor/confirm {code}. */
export const confirmSecondFactorInput = z.object({ code: totpCode() });

/** DELETE /auth/second-factor {password, code}. */
export const removeSecondFactorInput = z.object({
  password: z.string({ error: 'Password is required' }).min(1, 'Password is required').max(200),
  code: totpCode(),
});

/** POST /user/admin/:id/second-factor/reset {reason}. */
export const resetSecondFactorInput = z.object({ reason: requiredText('Reason', 500) });
