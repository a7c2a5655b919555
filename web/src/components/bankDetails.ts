// By path, not '@bank/domain/bank': vite.config.ts loads this file through Node, which runs no TypeScript in packages.
import { bankIdentity } from '../../../domain/src/bank';

/**
 * The bank's public identity and customer-care details, shown by the header, the footer, the contact and
 * support pages. Name, address and numbers come from @bank/domain/bank, which the API's statements print too.
 */
export const bankDetails = {
  name: bankIdentity.name,
  tagline: 'Banking for the climb ahead',
  phone: bankIdentity.phone,
  phoneHref: 'tel:+18005550142',
  email: bankIdentity.email,
  careersEmail: 'careers@summitbank.example',
  address: bankIdentity.address,
  bankingHours: 'Mon-Fri 9.00am to 5.00pm',
} as const;

export interface CareLine {
  readonly service: string;
  readonly tollFree: string;
  readonly abroad: string;
  readonly hours: string;
}

/** The Customer Care Numbers table of the contact page. */
export const customerCareLines: readonly CareLine[] = [
  { service: 'General Query/Complaint', tollFree: '1-800-555-0142', abroad: '+1 303 555 0142', hours: '24 hours, 7 days' },
  { service: 'Credit Card', tollFree: '1-800-555-0199', abroad: '+1 303 555 0199', hours: '24 hours, 7 days' },
];
