/** Money as people type it and as the API takes it (JSON dollars, at most two decimals). */
export type ParsedAmount = { readonly ok: true; readonly cents: number } | { readonly ok: false; readonly message: string };

/**
 * Parses dollars typed by a person ("12", "12.5", "1,250.75") into integer cents without floating-point
 * arithmetic. At most two decimals.
 */
export function parseAmount(text: string): ParsedAmount {
  const cleaned = text.trim().replace(/,/g, '');
  const match = /^(\d+)(?:\.(\d{0,2}))?$/.exec(cleaned);
  if (!match) {
    return /^\d+\.\d{3,}$/.test(cleaned)
      ? { ok: false, message: 'Amount can have at most two decimals' }
      : { ok: false, message: 'Please enter a valid amount' };
  }
  const whole = match[1] ?? '0';
  const fraction = (match[2] ?? '').padEnd(2, '0');
  if (whole.length > 10) return { ok: false, message: 'Please enter a valid amount' };
  return { ok: true, cents: Number(whole) * 100 + Number(fraction) };
}

/** Dollars as the API wants them (a JSON number with at most two decimals) from integer cents. */
export function centsToDollars(cents: number): number {
  return Number((cents / 100).toFixed(2));
}

/** Integer cents of a dollar amount that came from the API (at most two decimals). */
export function dollarsToCents(dollars: number): number {
  return Math.round(dollars * 100);
}
