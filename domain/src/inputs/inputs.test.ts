import { describe, expect, it } from 'vitest';
import { MAX_FILE_BYTES } from '../primitives';
import { adminAccountInput, adminTransactionInput, adminUserInput } from './adminInputs';
import { changePasswordForm, changePasswordInput, signinInput, signupForm, signupInput, staffPasswordField } from './authInputs';
import { secondFactorSignInInput } from './secondFactorInputs';
import { base64DecodedSize, parseImageDataUrl } from './dataUrl';
import { beneficiaryInput, contactInput, isBotSubmission } from './directoryInputs';
import { cardRequestInput, profileInput, profilePictureInput, verificationInput } from './userInputs';

const messages = (result: { error?: { issues: { path: PropertyKey[]; message: string }[] } | undefined }) =>
  result.error?.issues.map((issue) => [issue.path.join('.'), issue.message]) ?? [];

const signup = { firstName: 'Ada', lastName: 'Lovelace', email: ' Ada@Example.com ', phone: '555', password: 'secret', address: '1 Way', state: 'NY' };
const png = 'data:image/png;base64,iVBORw0KGgo=';

describe('signup and sign-in inputs', () => {
  it('accepts a complete signup with a lower-cased e-mail', () => {
    expect(signupInput.parse(signup)).toEqual({ ...signup, email: 'ada@example.com' });
  });

  it.each(['firstName', 'lastName', 'email', 'phone', 'password', 'address', 'state'] as const)('requires %s', (field) => {
    expect(messages(signupInput.safeParse({ ...signup, [field]: undefined }))[0]?.[0]).toBe(field);
    expect(signupInput.safeParse({ ...signup, [field]: '' }).success).toBe(false);
  });

  it('requires a password of at least 6 characters', () => {
    expect(messages(signupInput.safeParse({ ...signup, password: '12345' }))).toEqual([['password', 'Password must be at least 6 characters']]);
  });

  it('refuses a password longer than 72 bytes (bcrypt would silently ignore the rest), counting UTF-8 bytes', () => {
    expect(signupInput.safeParse({ ...signup, password: 'a'.repeat(72) }).success).toBe(true);
    expect(messages(signupInput.safeParse({ ...signup, password: 'a'.repeat(73) }))).toEqual([['password', 'Password must be at most 72 bytes (UTF-8)']]);
    // 'é' is two bytes: 36 of them are 72 bytes, 37 are 74.
    expect(signupInput.safeParse({ ...signup, password: 'é'.repeat(36) }).success).toBe(true);
    expect(signupInput.safeParse({ ...signup, password: 'é'.repeat(37) }).success).toBe(false);
    expect(messages(changePasswordInput.safeParse({ oldPassword: 'x', newPassword: '€'.repeat(25) }))).toEqual([['newPassword', 'New password must be at most 72 bytes (UTF-8)']]);
  });

  it('staff passwords need 12 characters', () => {
    expect(staffPasswordField().safeParse('eleven-char').success).toBe(false);
    expect(staffPasswordField().safeParse('twelve-chars').success).toBe(true);
  });

  it('the second step of sign-in takes a 6-digit code or a recovery code, not both', () => {
    expect(secondFactorSignInInput.parse({ challenge: 'c', code: ' 123 456 ' })).toEqual({ challenge: 'c', code: '123456' });
    expect(secondFactorSignInInput.parse({ challenge: 'c', recoveryCode: 'abcd-efgh-ijkl-mnop' })).toEqual({ challenge: 'c', recoveryCode: 'ABCDEFGHIJKLMNOP' });
    expect(secondFactorSignInInput.safeParse({ challenge: 'c' }).success).toBe(false);
    expect(secondFactorSignInInput.safeParse({ challenge: 'c', code: '123456', recoveryCode: 'ABCDEFGHIJKLMNOP' }).success).toBe(false);
    expect(messages(secondFactorSignInInput.safeParse({ challenge: 'c', code: '12345' }))).toEqual([['code', 'Enter the 6-digit code from your authenticator app']]);
  });

  it('requires a valid e-mail', () => {
    expect(messages(signupInput.safeParse({ ...signup, email: 'not-an-email' }))).toEqual([['email', 'Please enter a valid email address']]);
  });

  it("the form refuses different passwords: 'Passwords do not match'", () => {
    expect(messages(signupForm.safeParse({ ...signup, repeatPassword: 'secret!' }))).toEqual([['repeatPassword', 'Passwords do not match']]);
    expect(signupForm.safeParse({ ...signup, repeatPassword: 'secret' }).success).toBe(true);
  });

  it('sign-in needs e-mail and password', () => {
    expect(messages(signinInput.safeParse({ email: '', password: '' })).map(([path]) => path)).toEqual(['email', 'password']);
  });

  it('password change needs 6 characters, and the form a matching confirmation', () => {
    expect(messages(changePasswordInput.safeParse({ oldPassword: 'x', newPassword: '123' }))).toEqual([['newPassword', 'New password must be at least 6 characters']]);
    expect(messages(changePasswordForm.safeParse({ oldPassword: 'x', newPassword: '123456', confirmPassword: '1234567' }))).toEqual([['confirmPassword', 'Passwords do not match']]);
  });
});

describe('user inputs', () => {
  it('parses image data URLs with their decoded size', () => {
    expect(parseImageDataUrl(png)).toEqual({ ok: true, image: { mimeType: 'image/png', base64: 'iVBORw0KGgo=', sizeBytes: 8 } });
    expect(parseImageDataUrl('data:image/jpg;base64,AAAA')).toMatchObject({ ok: true, image: { mimeType: 'image/jpeg', sizeBytes: 3 } });
    expect(parseImageDataUrl('data:text/html;base64,AAAA')).toEqual({ ok: false, message: 'Only PNG, JPEG, GIF and WebP images are allowed' });
    expect(parseImageDataUrl('data:image/svg+xml;base64,AAAA')).toMatchObject({ ok: false });
    expect(parseImageDataUrl('data:image/png;base64,A*A=')).toEqual({ ok: false, message: 'File is not valid base64' });
    expect(parseImageDataUrl('hello')).toEqual({ ok: false, message: 'File must be an image data URL' });
    expect(base64DecodedSize('A'.repeat(Math.ceil(MAX_FILE_BYTES / 3) * 4))).toBeGreaterThan(MAX_FILE_BYTES);
  });

  it('lets missing verification fields through for the decider, and refuses malformed ones', () => {
    expect(verificationInput.parse({ passport: '', documentType: '', dateOfBirth: '' })).toMatchObject({ passport: undefined, documentType: undefined, dateOfBirth: undefined });
    expect(verificationInput.parse({ passport: png, documentFront: png, documentType: 'national-id', dateOfBirth: '1990-01-31T00:00:00.000Z' })).toMatchObject({
      passport: { sizeBytes: 8 },
      documentType: 'national-id',
      dateOfBirth: '1990-01-31',
    });
    expect(messages(verificationInput.safeParse({ documentType: 'visa' }))).toEqual([['documentType', 'Document type must be passport, national-id, driver-license or other']]);
    expect(messages(verificationInput.safeParse({ dateOfBirth: '1990-02-30' }))).toEqual([['dateOfBirth', 'Date must be a date (YYYY-MM-DD)']]);
    expect(messages(verificationInput.safeParse({ passport: 'data:application/pdf;base64,AAAA' }))).toEqual([['passport', 'Only PNG, JPEG, GIF and WebP images are allowed']]);
  });

  it('reads the profile phoneNumber as phone', () => {
    expect(profileInput.parse({ firstName: 'Ada', email: 'A@b.co', phoneNumber: '555', address: 'x', state: 'y' })).toEqual({
      firstName: 'Ada',
      lastName: undefined,
      email: 'a@b.co',
      phone: '555',
      address: 'x',
      state: 'y',
    });
  });

  it('requires a picture image and accepts an optional card type', () => {
    expect(profilePictureInput.safeParse({}).success).toBe(false);
    expect(profilePictureInput.parse({ image: png }).image.mimeType).toBe('image/png');
    expect(cardRequestInput.parse({})).toEqual({});
    expect(cardRequestInput.parse({ cardType: 'rewards' })).toEqual({ cardType: 'rewards' });
    expect(cardRequestInput.safeParse({ cardType: 'platinum' }).success).toBe(false);
  });
});

describe('admin inputs', () => {
  it('reads balances as cents and requires all three fields', () => {
    expect(adminAccountInput.parse({ savings: 1250.5, checking: '0', number: 1234567890 })).toEqual({ savingsCents: 125050, checkingCents: 0, accountNumber: '1234567890', reason: undefined });
    expect(messages(adminAccountInput.safeParse({ savings: '', checking: 1, number: '1234567890' }))).toEqual([['savings', 'All fields are required']]);
    expect(messages(adminAccountInput.safeParse({ savings: -1, checking: 1, number: '1234567890' }))).toEqual([['savings', 'Savings cannot be negative']]);
    expect(messages(adminAccountInput.safeParse({ savings: 1, checking: 1, number: '123' }))).toEqual([['number', 'Account number must be 10 digits']]);
  });

  it('flattens the user edit and lets missing fields through for the decider', () => {
    expect(adminUserInput.parse({ firstName: 'Ada', email: '', location: { address: ' 1 Way ', state: 'NY' }, isBlocked: true, paymentPin: '' })).toEqual({
      firstName: 'Ada',
      lastName: undefined,
      email: undefined,
      phone: undefined,
      address: '1 Way',
      state: 'NY',
      verificationStatus: undefined,
      isBlocked: true,
      paymentPin: undefined,
    });
    expect(adminUserInput.parse({}).address).toBeUndefined();
    expect(messages(adminUserInput.safeParse({ paymentPin: '12345' }))).toEqual([['paymentPin', 'Payment pin must be 6 digits']]);
    expect(adminUserInput.parse({ paymentPin: 654321 }).paymentPin).toBe('654321');
    expect(adminUserInput.safeParse({ paymentPin: 42 }).success).toBe(false);
    expect(messages(adminUserInput.safeParse({ verificationStatus: 'great' }))).toEqual([['verificationStatus', 'Verification status must be awaiting, pending, verified or failed']]);
  });

  it('reads an admin transaction, savings by default', () => {
    expect(adminTransactionInput.parse({ amount: '10.5', transactionType: 'debit', date: '2025-05-01', description: 'Fee' })).toEqual({
      amountCents: 1050,
      direction: 'debit',
      date: '2025-05-01',
      description: 'Fee',
      account: 'savings',
    });
    expect(adminTransactionInput.parse({})).toMatchObject({ amountCents: undefined, direction: undefined, account: 'savings' });
    expect(messages(adminTransactionInput.safeParse({ transactionType: 'gift' }))).toEqual([['transactionType', 'Transaction type must be credit or debit']]);
  });
});

describe('directory inputs', () => {
  it('checks beneficiary account numbers are digits', () => {
    expect(beneficiaryInput.parse({ name: 'Alan', accountNumber: 99887766554 })).toEqual({ name: 'Alan', accountNumber: '99887766554', bankName: undefined });
    expect(messages(beneficiaryInput.safeParse({ name: 'Alan', accountNumber: '12-34' }))).toEqual([['accountNumber', 'Account number must be 4 to 17 digits']]);
  });

  it('requires contact name, e-mail and message', () => {
    expect(messages(contactInput.safeParse({})).map(([path]) => path)).toEqual(['name', 'email', 'message']);
    expect(contactInput.parse({ name: 'Grace', email: 'g@x.io', message: 'Hi', phone: '' })).toEqual({ name: 'Grace', email: 'g@x.io', message: 'Hi', phone: undefined });
  });

  it('recognises a bot by its filled website field', () => {
    expect(isBotSubmission({ website: 'http://spam' })).toBe(true);
    expect(isBotSubmission({ website: '  ' })).toBe(false);
    expect(isBotSubmission({ name: 'Grace' })).toBe(false);
    expect(isBotSubmission(null)).toBe(false);
  });
});
