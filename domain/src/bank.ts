/**
 * The bank's identity as every channel prints it: the web site's header, footer and contact pages, and the
 * statements the API renders. One place, so a statement and the site say the same thing. Browser-safe.
 */
export const bankIdentity = {
  name: 'Summit Bank',
  address: ['1200 Summit Plaza', 'Denver, CO 80202', 'United States'],
  phone: '+1 (800) 555-0142',
  email: 'care@summitbank.example',
  /** The default of BANK_ROUTING_NUMBER (valid ABA check digit), printed on statements; the portal shows GET /bank's. */
  routingNumber: '102000021',
} as const;

/** The bank as GET /bank answers it and every message prints it: the address on one line. */
export interface BankDetails {
  readonly name: string;
  readonly routingNumber: string;
  readonly address: string;
  readonly phone: string;
  readonly email: string;
}

/** The bank's details with its configured routing number (BANK_ROUTING_NUMBER). */
export function bankDetailsOf(routingNumber: string = bankIdentity.routingNumber): BankDetails {
  return {
    name: bankIdentity.name,
    routingNumber,
    address: bankIdentity.address.join(', '),
    phone: bankIdentity.phone,
    email: bankIdentity.email,
  };
}
