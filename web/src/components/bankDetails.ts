/**
 * The bank's public identity and customer-care details, shown by the header, the footer, the contact and
 * support pages. One place, so every screen says the same thing.
 */
export const bankDetails = {
  name: 'Summit Bank',
  tagline: 'Banking for the climb ahead',
  phone: '+1 (800) 555-0142',
  phoneHref: 'tel:+18005550142',
  email: 'care@summitbank.example',
  careersEmail: 'careers@summitbank.example',
  address: ['1200 Summit Plaza', 'Denver, CO 80202', 'United States'],
  bankingHours: 'Mon-Fri 9.00am to 5.00pm',
  /** Routing number printed on statements; shown on the portal's account page. */
  routingNumber: '102000021',
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
