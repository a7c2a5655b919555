/**
 * ABA routing transit numbers (browser-safe, no zod): nine digits whose weighted sum
 * 3·d1 + 7·d2 + d3 + 3·d4 + 7·d5 + d6 + 3·d7 + 7·d8 + d9 is a multiple of 10.
 */

export const ROUTING_NUMBER_LENGTH = 9;
export const INVALID_ROUTING_NUMBER_MESSAGE = 'Invalid routing number';

const WEIGHTS = [3, 7, 1, 3, 7, 1, 3, 7, 1] as const;
const NINE_DIGITS = /^\d{9}$/;

/** The weighted digit sum of the first eight digits, mod 10, turned into the ninth digit that makes it valid. */
export function routingCheckDigit(firstEight: string): number {
  if (!/^\d{8}$/.test(firstEight)) throw new RangeError('routingCheckDigit needs exactly 8 digits');
  let sum = 0;
  for (let index = 0; index < 8; index += 1) sum += WEIGHTS[index]! * Number(firstEight[index]);
  return (10 - (sum % 10)) % 10;
}

/** True for nine digits that pass the ABA check digit. */
export function isValidRoutingNumber(value: string): boolean {
  if (!NINE_DIGITS.test(value)) return false;
  let sum = 0;
  for (let index = 0; index < ROUTING_NUMBER_LENGTH; index += 1) sum += WEIGHTS[index]! * Number(value[index]);
  return sum % 10 === 0;
}
