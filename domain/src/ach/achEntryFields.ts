import { toNachaText } from './nacha/nachaFields';
import { isValidRoutingNumber } from './routingNumber';

/** The width of an entry's DFI account number field (positions 13–29 of an entry detail record). */
export const ACH_ACCOUNT_NUMBER_LENGTH = 17;

/** True when an account number goes into an entry as it is: 1 to 17 printable ASCII characters once trimmed. */
export function fitsAchAccountNumber(accountNumber: string): boolean {
  const text = accountNumber.trim();
  return text !== '' && text.length <= ACH_ACCOUNT_NUMBER_LENGTH && toNachaText(text) === text;
}

/**
 * Why a payment to another bank could not be written into a NACHA file, or undefined when it can: the routing
 * number must pass the ABA check digit (a blank one names no bank), and the account number must fit its field
 * unchanged (a longer or non-ASCII one would be refused by the file's writer, or worse, cut and paid elsewhere).
 * Checked at the request, again when the entry is queued, and once more when a file is built.
 */
export function achEntryProblem(entry: { readonly routingNumber: string; readonly accountNumber: string }): 'invalid_routing_number' | 'invalid_external_account' | undefined {
  if (!isValidRoutingNumber(entry.routingNumber.trim())) return 'invalid_routing_number';
  if (!fitsAchAccountNumber(entry.accountNumber)) return 'invalid_external_account';
  return undefined;
}
