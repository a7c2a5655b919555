import { z } from 'zod';
import { parseDollars } from '../money';

/**
 * Field helpers for the HTTP-input schemas.
 * Convention: a value that is MISSING (absent, null, '' or blanks) where the spec has a business message is let
 * through as `undefined` and refused by the decider with that message (422); a value that is PRESENT BUT
 * MALFORMED is a zod issue (400).
 */

/** '' / blanks / null → undefined; strings are trimmed. */
export function blankToUndefined(value: unknown): unknown {
  if (value === null) return undefined;
  if (typeof value === 'string') {
    const trimmed = value.trim();
    return trimmed === '' ? undefined : trimmed;
  }
  return value;
}

/** A required, trimmed, non-empty string (400 when missing). */
export function requiredText(label: string, max = 200) {
  return z
    .string({ error: (issue) => (issue.input === undefined || issue.input === null ? `${label} is required` : `${label} must be text`) })
    .trim()
    .min(1, `${label} is required`)
    .max(max, `${label} must be at most ${max} characters`);
}

/** An optional, trimmed string: missing or blank → undefined. */
export function optionalText(label: string, max = 200) {
  return z.preprocess(
    blankToUndefined,
    z.string({ error: `${label} must be text` }).max(max, `${label} must be at most ${max} characters`).optional(),
  );
}

/** A required e-mail, trimmed and lower-cased. */
export function requiredEmail(label = 'Email') {
  return z
    .string({ error: (issue) => (issue.input === undefined || issue.input === null ? `${label} is required` : `${label} must be text`) })
    .trim()
    .toLowerCase()
    .min(1, `${label} is required`)
    .max(254, `${label} must be at most 254 characters`)
    .pipe(z.email({ error: 'Please enter a valid email address' }));
}

/** An optional e-mail (missing → undefined), trimmed and lower-cased when present. */
export function optionalEmail(label = 'Email') {
  return z.preprocess(
    blankToUndefined,
    z
      .string({ error: `${label} must be text` })
      .toLowerCase()
      .max(254, `${label} must be at most 254 characters`)
      .pipe(z.email({ error: 'Please enter a valid email address' }))
      .optional(),
  );
}

export interface DollarsFieldOptions {
  /** Smallest accepted amount in cents (default 1, i.e. 0.01 dollars). */
  readonly minCents?: number;
  /** Message when below minCents. */
  readonly minMessage?: string;
  readonly allowNegative?: boolean;
}

/** Dollars as a JSON number or decimal string → integer cents (see parseDollars). */
export function dollarsField(options: DollarsFieldOptions = {}) {
  const minCents = options.minCents ?? 1;
  return z.unknown().transform((value, ctx): number => {
    const parsed = parseDollars(value, { allowNegative: options.allowNegative ?? false });
    if (!parsed.ok) {
      ctx.addIssue({ code: 'custom', message: parsed.message });
      return z.NEVER;
    }
    if (!options.allowNegative && parsed.cents < minCents) {
      ctx.addIssue({ code: 'custom', message: options.minMessage ?? 'Amount must be greater than zero' });
      return z.NEVER;
    }
    return parsed.cents;
  });
}

/** Like dollarsField, but a missing/blank value gives undefined (for the decider's "fill all fields" rule). */
export function optionalDollarsField(options: DollarsFieldOptions = {}) {
  return z.preprocess(blankToUndefined, dollarsField(options).optional());
}

/** Dollars where 0 is allowed (balances). */
export function balanceDollarsField(label: string) {
  return z.unknown().transform((value, ctx): number => {
    if (value === undefined || value === null || (typeof value === 'string' && value.trim() === '')) {
      ctx.addIssue({ code: 'custom', message: 'All fields are required' });
      return z.NEVER;
    }
    const parsed = parseDollars(value);
    if (!parsed.ok) {
      ctx.addIssue({ code: 'custom', message: parsed.error === 'negative' ? `${label} cannot be negative` : parsed.message });
      return z.NEVER;
    }
    return parsed.cents;
  });
}

/** Optional enum: missing/blank → undefined; an unknown value → 400. */
export function optionalEnum<const T extends readonly [string, ...string[]]>(values: T, message: string) {
  return z.preprocess(blankToUndefined, z.enum(values, { error: message }).optional());
}
