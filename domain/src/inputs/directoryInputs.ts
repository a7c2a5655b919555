import { z } from 'zod';
import { blankToUndefined, optionalText, requiredEmail, requiredText } from './fields';

/**
 * HTTP input of POST /beneficiaries: {name, accountNumber, bankName?}. Missing name/accountNumber → decider
 * 'All fields are required' (422); an account number that is not 4-17 digits → 400.
 */
export const beneficiaryInput = z.object({
  name: optionalText('Name', 200),
  accountNumber: z.preprocess(
    (value) => (typeof value === 'number' ? String(value) : blankToUndefined(value)),
    z.string({ error: 'Account number must be text' }).regex(/^\d{4,17}$/, 'Account number must be 4 to 17 digits').optional(),
  ),
  bankName: optionalText('Bank name', 100),
});
export type BeneficiaryInput = z.output<typeof beneficiaryInput>;

/**
 * HTTP input of POST /contacts and the contact form: name, email, message required (400); phone and subject
 * optional; `website` is the hidden bot-check field (see isBotSubmission).
 */
export const contactInput = z.object({
  name: requiredText('Name', 200),
  email: requiredEmail(),
  phone: optionalText('Phone', 40),
  subject: optionalText('Subject', 200),
  message: requiredText('Message', 5000),
  website: optionalText('Website', 500),
});
export type ContactInput = z.output<typeof contactInput>;

/**
 * A filled `website` field means a bot: the API answers 201 and stores nothing.
 * Accepts the raw body (checked before validation, so a bot never learns which fields are wrong) or parsed input.
 */
export function isBotSubmission(body: unknown): boolean {
  if (typeof body !== 'object' || body === null || !('website' in body)) return false;
  const website: unknown = body.website;
  return typeof website === 'string' ? website.trim() !== '' : website !== undefined && website !== null && website !== false;
}
