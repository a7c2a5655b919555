/**
 * Exact sums of the API's dollar amounts: each JSON number is read from its shortest decimal form into integer cents
 * (a bigint), never added as floating point. The screens show the API's own figures; this only serves the one figure
 * the contract leaves to the reader, a clearing account's balance against the sum of its open items.
 */

const DECIMAL = /^(-)?(\d+)(?:\.(\d{1,2}))?$/;

/** 1250.5 → 125050n. Throws on a value that is not dollars with at most two decimals. */
export function dollarsToCents(dollars: number): bigint {
  const match = DECIMAL.exec(String(dollars));
  if (!match) throw new RangeError(`Not a dollar amount with at most two decimals: ${dollars}`);
  const [, sign, whole = '0', fraction = ''] = match;
  const cents = BigInt(whole) * 100n + BigInt(fraction.padEnd(2, '0'));
  return sign ? -cents : cents;
}

/** The exact sum of dollar amounts, in cents. */
export function sumCents(amounts: readonly number[]): bigint {
  return amounts.reduce((total, amount) => total + dollarsToCents(amount), 0n);
}

/** -123050n → "-1230.50": the decimal string formatMoney prints exactly. */
export function centsToDecimal(cents: bigint): `${number}` {
  const negative = cents < 0n;
  const abs = negative ? -cents : cents;
  return `${negative ? '-' : ''}${abs / 100n}.${String(abs % 100n).padStart(2, '0')}` as `${number}`;
}
