import type { AccountKind } from '../primitives';
import { MAX_ANNUAL_RATE, RATE_SCALE } from './interestMath';

/** Rates as percent, at the HTTP edge: at most 4 decimals, 0–25. */
const RATE_TEXT = /^(\d{1,2})(?:\.(\d{1,4}))?$/;

/**
 * A rate given in percent (a number or a numeric string: 5, '5.00', 4.125) as the integer annualRate (ten-thousandths
 * of a percent), undefined when it is not a number in 0–25 with at most 4 decimals.
 */
export function parseAnnualRate(value: unknown): number | undefined {
  let text: string;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) return undefined;
    // A JS number prints its shortest exact decimal form (4.125 → '4.125'); exponent forms are refused.
    text = String(value);
  } else if (typeof value === 'string') {
    text = value.trim();
  } else {
    return undefined;
  }
  const match = RATE_TEXT.exec(text);
  if (!match) return undefined;
  const whole = Number(match[1]);
  const fraction = Number((match[2] ?? '').padEnd(4, '0'));
  const rate = whole * RATE_SCALE + fraction;
  return rate <= MAX_ANNUAL_RATE ? rate : undefined;
}

/** annualRate as percent text with at least two decimals: 50_000 → '5.00', 41_250 → '4.125'. */
export function formatAnnualRate(annualRate: number): string {
  const whole = Math.trunc(annualRate / RATE_SCALE);
  const fraction = String(annualRate % RATE_SCALE).padStart(4, '0').replace(/0+$/, '');
  return `${whole}.${fraction.padEnd(2, '0')}`;
}

/**
 * The annual percentage yield of a rate compounded monthly, as percent text with two decimals (half up):
 * APY = 100 × ((1 + r/1200)^12 − 1). Exact: with r = annualRate / 10_000, (1 + r/1200) = (12_000_000 + annualRate) /
 * 12_000_000, raised to the 12th power in integers.
 */
export function apyOf(annualRate: number): string {
  const base = 12_000_000n;
  const numerator = (base + BigInt(annualRate)) ** 12n;
  const denominator = base ** 12n;
  // Hundredths of a percent: 10_000 × (numerator / denominator − 1), rounded half up.
  const hundredths = (20_000n * (numerator - denominator) + denominator) / (2n * denominator);
  const text = hundredths.toString().padStart(3, '0');
  return `${text.slice(0, -2)}.${text.slice(-2)}`;
}

export interface ScheduledRate {
  readonly account: AccountKind;
  readonly annualRate: number;
  readonly effectiveFrom: string;
}
