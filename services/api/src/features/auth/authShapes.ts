import { z } from 'zod';

/** The answers of the second factor and the sessions (docs/api.md), as the OpenAPI document and the tests see them. */

export const secondFactorChallengeShape = z
  .object({
    message: z.enum(['Second factor required', 'Second factor enrolment required']),
    secondFactor: z.enum(['totp', 'enrol']),
    challenge: z.string().describe('Opaque; send it back to POST /auth/second-factor within 5 minutes, once'),
  })
  .strict();

export const enrolmentSecretShape = z
  .object({
    secret: z.string().regex(/^[A-Z2-7]+$/).describe('The TOTP key as base32 text, for typing into an app'),
    otpauthUri: z.string().startsWith('otpauth://totp/'),
    qrCode: z.string().startsWith('data:image/png;base64,').describe('The QR code of otpauthUri'),
  })
  .strict();

export const recoveryCodesShape = z
  .object({ message: z.string(), recoveryCodes: z.array(z.string().regex(/^[A-Z2-7]{4}(-[A-Z2-7]{4}){3}$/)).length(10).describe('Shown once') })
  .strict();

export const secondFactorStatusShape = z
  .object({
    enabled: z.boolean(),
    enrolledAt: z.iso.datetime({ offset: true }).nullable(),
    recoveryCodesLeft: z.number().int().min(0).max(10),
    required: z.boolean().optional().describe('Staff while STAFF_SECOND_FACTOR=required (GET /auth/second-factor only)'),
  })
  .strict();

export const sessionShape = z
  .object({
    id: z.uuid(),
    device: z.string().describe('From the user agent, e.g. "Firefox on Linux"'),
    address: z.string(),
    createdAt: z.iso.datetime({ offset: true }),
    lastUsedAt: z.iso.datetime({ offset: true }),
    current: z.boolean(),
  })
  .strict();

export const signInNoticeShape = z
  .object({ id: z.uuid().describe("The sign-in's session id"), device: z.string(), address: z.string(), createdAt: z.iso.datetime({ offset: true }) })
  .strict();
