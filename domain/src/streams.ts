/**
 * Stream names. One function per stream category; `parseStreamName` inverts them.
 *   customer-<userId>        every user (customers and staff)
 *   account-<userId>         the customer's savings and checking ledger
 *   transfer-<transferId>    one transfer's process
 *   beneficiaries            the payee directory (a single stream)
 *   contact-<contactId>      one contact message
 *   email-<lowercased email> e-mail reservation (uniqueness)
 *   accountnumber-<digits>   account-number reservation (uniqueness)
 *   standingOrder-<orderId>  one standing order (its schedule and occurrences)
 *   businessDays             the business calendar and its closes of business (a single stream)
 *   interestRates            the interest rates and their scheduled changes (a single stream)
 *   achFiles                 the ACH file cycle: waiting entries, files, settlements, returns, incoming (a single stream)
 */
export const streamCategories = ['customer', 'account', 'transfer', 'beneficiaries', 'contact', 'email', 'accountnumber', 'standingOrder', 'businessDays', 'interestRates', 'achFiles'] as const;
export type StreamCategory = (typeof streamCategories)[number];

export const BENEFICIARIES_STREAM = 'beneficiaries';
export const BUSINESS_DAYS_STREAM = 'businessDays';
export const INTEREST_RATES_STREAM = 'interestRates';
export const ACH_FILES_STREAM = 'achFiles';

/** E-mail addresses are compared case-insensitively, trimmed. */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

export const streams = {
  customer: (userId: string): string => `customer-${userId}`,
  account: (userId: string): string => `account-${userId}`,
  transfer: (transferId: string): string => `transfer-${transferId}`,
  beneficiaries: (): string => BENEFICIARIES_STREAM,
  contact: (contactId: string): string => `contact-${contactId}`,
  email: (email: string): string => `email-${normalizeEmail(email)}`,
  accountNumber: (accountNumber: string): string => `accountnumber-${accountNumber}`,
  standingOrder: (orderId: string): string => `standingOrder-${orderId}`,
  businessDays: (): string => BUSINESS_DAYS_STREAM,
  interestRates: (): string => INTEREST_RATES_STREAM,
  achFiles: (): string => ACH_FILES_STREAM,
} as const;

const singleStreams: ReadonlySet<StreamCategory> = new Set(['beneficiaries', 'businessDays', 'interestRates', 'achFiles']);

export type ParsedStreamName = { readonly category: StreamCategory; readonly id: string };

/** 'customer-<id>' → { category: 'customer', id }; 'beneficiaries' → { category: 'beneficiaries', id: '' }. */
export function parseStreamName(streamName: string): ParsedStreamName | undefined {
  if (streamName === BENEFICIARIES_STREAM) return { category: 'beneficiaries', id: '' };
  if (streamName === BUSINESS_DAYS_STREAM) return { category: 'businessDays', id: '' };
  if (streamName === INTEREST_RATES_STREAM) return { category: 'interestRates', id: '' };
  if (streamName === ACH_FILES_STREAM) return { category: 'achFiles', id: '' };
  const dash = streamName.indexOf('-');
  if (dash <= 0) return undefined;
  const prefix = streamName.slice(0, dash);
  const id = streamName.slice(dash + 1);
  const category = streamCategories.find((c) => c === prefix && !singleStreams.has(c));
  return category && id !== '' ? { category, id } : undefined;
}
