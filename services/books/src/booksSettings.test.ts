import { ConfigError } from '@bank/platform';
import { describe, expect, it } from 'vitest';
import { MANUAL_MODE_IN_PRODUCTION, parseBooksSettings } from './booksSettings';

describe('parseBooksSettings', () => {
  it('defaults to the calendar, no start date, a COB tick every minute, ten minutes for the projector, 16 payments at once', () => {
    expect(parseBooksSettings({})).toEqual({ BUSINESS_DATE_MODE: 'calendar', COB_TICK_MS: 60_000, COB_PROJECTOR_WAIT_MS: 600_000, INTEREST_PAYMENT_CONCURRENCY: 16 });
    expect(parseBooksSettings({ BUSINESS_DATE_MODE: '', BUSINESS_DATE_START: '' })).toEqual({ BUSINESS_DATE_MODE: 'calendar', COB_TICK_MS: 60_000, COB_PROJECTOR_WAIT_MS: 600_000, INTEREST_PAYMENT_CONCURRENCY: 16 });
  });

  it('reads manual mode with its first date and the tick', () => {
    expect(parseBooksSettings({ BUSINESS_DATE_MODE: 'manual', BUSINESS_DATE_START: '2026-02-28', COB_TICK_MS: '500', NODE_ENV: 'test' })).toEqual({
      BUSINESS_DATE_MODE: 'manual',
      BUSINESS_DATE_START: '2026-02-28',
      COB_TICK_MS: 500,
      COB_PROJECTOR_WAIT_MS: 600_000, INTEREST_PAYMENT_CONCURRENCY: 16,
    });
  });

  it('refuses manual mode in production with a message that says what to do', () => {
    expect(() => parseBooksSettings({ BUSINESS_DATE_MODE: 'manual', NODE_ENV: 'production' })).toThrow(ConfigError);
    expect(() => parseBooksSettings({ BUSINESS_DATE_MODE: 'manual', NODE_ENV: 'production' })).toThrow(MANUAL_MODE_IN_PRODUCTION);
    expect(parseBooksSettings({ BUSINESS_DATE_MODE: 'calendar', NODE_ENV: 'production' }).BUSINESS_DATE_MODE).toBe('calendar');
  });

  it('names the variable that is wrong', () => {
    expect(() => parseBooksSettings({ BUSINESS_DATE_MODE: 'weekly' })).toThrow(/BUSINESS_DATE_MODE/);
    expect(() => parseBooksSettings({ BUSINESS_DATE_START: '2026-02-30' })).toThrow(/BUSINESS_DATE_START: must be a date YYYY-MM-DD/);
    expect(() => parseBooksSettings({ BUSINESS_DATE_START: '28/02/2026' })).toThrow(/BUSINESS_DATE_START/);
    expect(() => parseBooksSettings({ COB_TICK_MS: '0' })).toThrow(/COB_TICK_MS/);
    expect(() => parseBooksSettings({ COB_TICK_MS: 'often' })).toThrow(/COB_TICK_MS/);
    expect(() => parseBooksSettings({ COB_PROJECTOR_WAIT_MS: '-1' })).toThrow(/COB_PROJECTOR_WAIT_MS/);
    expect(() => parseBooksSettings({ INTEREST_PAYMENT_CONCURRENCY: '0' })).toThrow(/INTEREST_PAYMENT_CONCURRENCY/);
    expect(parseBooksSettings({ INTEREST_PAYMENT_CONCURRENCY: '4' }).INTEREST_PAYMENT_CONCURRENCY).toBe(4);
  });
});
