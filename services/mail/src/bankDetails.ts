import { bankDetailsOf, bankIdentity, type BankDetails } from '@bank/domain';

/** The bank as GET /bank answers and every message's footer prints it (domain/src/bank.ts). */
export type { BankDetails };

/** The ABA check digit (domain/src/ach/routingNumber.ts). */
export { isValidRoutingNumber } from '@bank/domain';

export function bankDetails(routingNumber: string = bankIdentity.routingNumber): BankDetails {
  return bankDetailsOf(routingNumber);
}
