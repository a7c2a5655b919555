import { z } from 'zod';
import { isCalendarDate } from '../calendar';
import { cardTypes, documentTypes } from '../primitives';
import { parseImageDataUrl, type ImageDataUrl } from './dataUrl';
import { blankToUndefined, optionalEmail, optionalEnum, optionalText } from './fields';

/** A data-URL image: present but not an image data URL → 400; output is the parsed image (with sizeBytes). */
export const imageDataUrlField = z.string({ error: 'File must be an image data URL' }).transform((value, ctx): ImageDataUrl => {
  const parsed = parseImageDataUrl(value);
  if (!parsed.ok) {
    ctx.addIssue({ code: 'custom', message: parsed.message });
    return z.NEVER;
  }
  return parsed.image;
});

/** Missing or blank → undefined (the decider answers 'All fields are required'). */
export const optionalImageDataUrlField = z.preprocess(blankToUndefined, imageDataUrlField.optional());

const DATE_PREFIX = /^(\d{4}-\d{2}-\d{2})(?:T.*)?$/;

/** YYYY-MM-DD (an ISO date-time is cut to its date); missing → undefined; malformed or impossible date → 400. */
export const optionalCalendarDateField = z.preprocess(
  blankToUndefined,
  z
    .string({ error: 'Date must be a date (YYYY-MM-DD)' })
    .transform((value, ctx): string => {
      const date = DATE_PREFIX.exec(value)?.[1];
      if (!date || !isCalendarDate(date)) {
        ctx.addIssue({ code: 'custom', message: 'Date must be a date (YYYY-MM-DD)' });
        return z.NEVER;
      }
      return date;
    })
    .optional(),
);


/**
 * HTTP input of POST /user/verification. Images are data URLs (the API stores them and passes
 * {fileId, sha256, sizeBytes} to SubmitVerification). Missing passport/front/date/type → decider (422).
 */
export const verificationInput = z.object({
  passport: optionalImageDataUrlField,
  documentFront: optionalImageDataUrlField,
  documentBack: optionalImageDataUrlField,
  documentType: optionalEnum(documentTypes, 'Document type must be passport, national-id, driver-license or other'),
  dateOfBirth: optionalCalendarDateField,
});
export type VerificationInput = z.output<typeof verificationInput>;

/**
 * HTTP input of PATCH /user/profile: {firstName, lastName, email, phoneNumber, address, state}.
 * `phone` is accepted as an alias of `phoneNumber`; the output has `phone`. Names are optional (omitted = unchanged);
 * a changed name and missing other fields are refused by the decider (422).
 */
export const profileInput = z
  .object({
    firstName: optionalText('First name', 100),
    lastName: optionalText('Last name', 100),
    email: optionalEmail(),
    phoneNumber: optionalText('Phone', 40),
    phone: optionalText('Phone', 40),
    address: optionalText('Address', 200),
    state: optionalText('State', 100),
  })
  .transform(({ phoneNumber, phone, ...rest }) => ({ ...rest, phone: phoneNumber ?? phone }));
export type ProfileInput = z.output<typeof profileInput>;

/** HTTP input of PATCH /user/profile-picture. */
export const profilePictureInput = z.object({ image: imageDataUrlField });
export type ProfilePictureInput = z.output<typeof profilePictureInput>;

/** HTTP input of POST /cards/requests. */
export const cardRequestInput = z.object({
  cardType: optionalEnum(cardTypes, 'Card type must be business, cashback, low-interest, rewards or travel-hotel'),
});
export type CardRequestInput = z.output<typeof cardRequestInput>;
