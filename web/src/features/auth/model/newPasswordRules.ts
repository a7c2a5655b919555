import { PASSWORD_MAX_BYTES, PASSWORD_MIN_LENGTH } from '@bank/domain/limits';

/** The sign-up rules for a new password, as the reset form shows them (the server checks them again). */
export const NEW_PASSWORD_RULES = `At least ${PASSWORD_MIN_LENGTH} characters, at most ${PASSWORD_MAX_BYTES} bytes. Staff passwords need at least 12.`;

export interface NewPasswordErrors {
  newPassword?: string;
  confirmPassword?: string;
}

/** The errors of a new password and its repetition under the sign-up rules; empty when both are fine. */
export function checkNewPassword(newPassword: string, confirmPassword: string): NewPasswordErrors {
  const errors: NewPasswordErrors = {};
  if (!newPassword) errors.newPassword = 'New password is required';
  else if (newPassword.length < PASSWORD_MIN_LENGTH) errors.newPassword = `New password must be at least ${PASSWORD_MIN_LENGTH} characters`;
  else if (newPassword.length > 200) errors.newPassword = 'New password must be at most 200 characters';
  else if (new TextEncoder().encode(newPassword).length > PASSWORD_MAX_BYTES) errors.newPassword = `New password must be at most ${PASSWORD_MAX_BYTES} bytes (UTF-8)`;
  if (!confirmPassword) errors.confirmPassword = 'Confirm your new password';
  else if (newPassword && confirmPassword !== newPassword) errors.confirmPassword = 'Passwords do not match';
  return errors;
}
