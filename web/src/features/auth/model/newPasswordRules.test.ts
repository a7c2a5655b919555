import { describe, expect, it } from 'vitest';
import { checkNewPassword, NEW_PASSWORD_RULES } from './newPasswordRules';

describe('checkNewPassword (the sign-up rules)', () => {
  it('accepts a password of 6 characters repeated the same', () => {
    expect(checkNewPassword('abcdef', 'abcdef')).toEqual({});
  });

  it('asks for both fields', () => {
    expect(checkNewPassword('', '')).toEqual({ newPassword: 'New password is required', confirmPassword: 'Confirm your new password' });
  });

  it('refuses fewer than 6 characters and a repetition that differs', () => {
    expect(checkNewPassword('abcde', 'abcde').newPassword).toBe('New password must be at least 6 characters');
    expect(checkNewPassword('abcdef', 'abcdeg')).toEqual({ confirmPassword: 'Passwords do not match' });
  });

  it('counts bytes as bcrypt does: 25 three-byte characters are over 72 bytes', () => {
    const long = '€'.repeat(25);
    expect(checkNewPassword(long, long).newPassword).toBe('New password must be at most 72 bytes (UTF-8)');
    expect(checkNewPassword('€'.repeat(24), '€'.repeat(24))).toEqual({});
  });

  it('states the rules it applies', () => {
    expect(NEW_PASSWORD_RULES).toMatch(/At least 6 characters, at most 72 bytes/);
  });
});
