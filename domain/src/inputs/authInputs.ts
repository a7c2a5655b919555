import { z } from 'zod';
import { PASSWORD_MAX_BYTES, PASSWORD_MIN_LENGTH, STAFF_PASSWORD_MIN_LENGTH } from '../primitives';
import { requiredEmail, requiredText } from './fields';

/** HTTP input of POST /auth/signup and the signup form (400 on any issue). E-mail is trimmed and lower-cased. */
export const signupInput = z.object({
  firstName: requiredText('First name', 100),
  lastName: requiredText('Last name', 100),
  email: requiredEmail(),
  phone: requiredText('Phone', 40),
  password: newPasswordField('Password'),
  address: requiredText('Address', 200),
  state: requiredText('State', 100),
});
export type SignupInput = z.output<typeof signupInput>;

/** The web signup form: signupInput plus the repeated password ('Passwords do not match'). */
export const signupForm = signupInput
  .extend({ repeatPassword: newPasswordField('Repeat password') })
  .refine((form) => form.password === form.repeatPassword, { message: 'Passwords do not match', path: ['repeatPassword'] });

/** HTTP input of POST /auth/signin. */
export const signinInput = z.object({
  email: requiredEmail(),
  password: z.string({ error: 'Password is required' }).min(1, 'Password is required').max(200),
});
export type SigninInput = z.output<typeof signinInput>;

/** HTTP input of POST /auth/change-password. */
export const changePasswordInput = z.object({
  oldPassword: z.string({ error: 'Old password is required' }).min(1, 'Old password is required').max(200),
  newPassword: newPasswordField('New password'),
});
export type ChangePasswordInput = z.output<typeof changePasswordInput>;

/** The web password form: new and confirm must match ('Passwords do not match'). */
export const changePasswordForm = changePasswordInput
  .extend({ confirmPassword: z.string({ error: 'Confirm password is required' }) })
  .refine((form) => form.newPassword === form.confirmPassword, { message: 'Passwords do not match', path: ['confirmPassword'] });

/** Bytes of the UTF-8 encoding (what bcrypt reads). */
export function utf8Length(text: string): number {
  return new TextEncoder().encode(text).length;
}

function newPasswordField(label: string, minLength = PASSWORD_MIN_LENGTH) {
  return z
    .string({ error: `${label} is required` })
    .min(minLength, `${label} must be at least ${minLength} characters`)
    .max(200, `${label} must be at most 200 characters`)
    .refine((value) => utf8Length(value) <= PASSWORD_MAX_BYTES, `${label} must be at most ${PASSWORD_MAX_BYTES} bytes (UTF-8)`);
}

/** A new password of a staff member (admin, auditor): at least 12 characters, at most 72 bytes. */
export function staffPasswordField(label = 'Password') {
  return newPasswordField(label, STAFF_PASSWORD_MIN_LENGTH);
}
