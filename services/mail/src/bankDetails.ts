import { bankIdentity } from '@bank/domain';

/** The bank as GET /bank answers and every message's footer prints it. */
export interface BankDetails {
  readonly name: string;
  readonly routingNumber: string;
  readonly address: string;
  readonly phone: string;
  readonly email: string;
}

/** The ABA check: 3·(d1+d4+d7) + 7·(d2+d5+d8) + (d3+d6+d9) is a multiple of 10. */
export function isValidRoutingNumber(value: string): boolean {
  if (!/^\d{9}$/.test(value)) return false;
  const d = [...value].map(Number);
  const sum = 3 * (d[0]! + d[3]! + d[6]!) + 7 * (d[1]! + d[4]! + d[7]!) + (d[2]! + d[5]! + d[8]!);
  return sum % 10 === 0;
}

export function bankDetails(routingNumber: string = bankIdentity.routingNumber): BankDetails {
  return {
    name: bankIdentity.name,
    routingNumber,
    address: bankIdentity.address.join(', '),
    phone: bankIdentity.phone,
    email: bankIdentity.email,
  };
}
