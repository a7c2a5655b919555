import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DomainError, domainErrorMessages, httpStatusOf, isDomainError, tryDecide } from './domainError';
import type { DomainErrorCode } from './domainError';

describe('DomainError', () => {
  it('carries a code, the catalogue message and the HTTP status', () => {
    const error = new DomainError('blocked');
    expect(error).toBeInstanceOf(Error);
    expect(error).toMatchObject({ name: 'DomainError', code: 'blocked', message: 'Your account had been suspended, please contact bank support', httpStatus: 422 });
    expect(new DomainError('not_found', 'User not found')).toMatchObject({ message: 'User not found', httpStatus: 404 });
    expect(isDomainError(error)).toBe(true);
    expect(isDomainError(new Error('x'))).toBe(false);
  });

  it('maps not_found to 404, conflicts to 409 and every other refusal to 422', () => {
    expect(httpStatusOf('not_found')).toBe(404);
    expect(httpStatusOf('email_taken')).toBe(409);
    expect(httpStatusOf('account_number_taken')).toBe(409);
    expect(httpStatusOf('already_exists')).toBe(409);
    expect(httpStatusOf('insufficient_balance')).toBe(422);
  });

  it('has the exact texts of the spec and API.md', () => {
    expect(domainErrorMessages).toMatchObject({
      blocked: 'Your account had been suspended, please contact bank support',
      no_pin: 'Please set your payment pin',
      wrong_pin: 'Incorrect payment pin',
      fill_fields: 'Please fill all fields',
      same_account: 'You cannot transfer to the same account',
      insufficient_balance: 'You do not have enough balance',
      all_fields_required: 'All fields are required',
      file_too_large: 'File size must be less than 10MB',
      old_password_incorrect: 'Old password is incorrect',
      email_taken: 'Email already registered',
      already_reversed: 'Transaction already reversed',
    });
  });

  it('tryDecide turns a refusal into a result and lets other errors through', () => {
    expect(tryDecide(() => 1)).toEqual({ ok: true, value: 1 });
    const result = tryDecide(() => {
      throw new DomainError('closed');
    });
    expect(result.ok ? undefined : result.error.code).toBe('closed');
    expect(() => tryDecide(() => JSON.parse('{'))).toThrow(SyntaxError);
  });

  it('every refusal code is exercised by a test', () => {
    const testSources = (dir: string): string[] =>
      readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
        const path = join(dir, entry.name);
        if (entry.isDirectory()) return testSources(path);
        return entry.name.endsWith('.test.ts') && entry.name !== 'domainError.test.ts' ? [readFileSync(path, 'utf8')] : [];
      });
    const all = testSources(import.meta.dirname).join('\n');
    const untested = (Object.keys(domainErrorMessages) as DomainErrorCode[]).filter(
      (code) => !all.includes(`refused('${code}'`) && !all.includes(domainErrorMessages[code]) && !all.includes(`new DomainError('${code}')`),
    );
    expect(untested).toEqual([]);
  });
});
