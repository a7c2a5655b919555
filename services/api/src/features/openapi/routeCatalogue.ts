import {
  confirmSecondFactorInput,
  enrolChallengeInput,
  removeSecondFactorInput,
  resetSecondFactorInput,
  secondFactorSignInInput,
  adminAccountInput,
  adminTransactionInput,
  adminUserInput,
  beneficiaryInput,
  cardRequestInput,
  changePasswordInput,
  contactInput,
  profileInput,
  profilePictureInput,
  signinInput,
  signupInput,
  standingOrderInput,
  transferInput,
  verificationInput,
  type Role,
} from '@bank/domain';
import { z } from 'zod';
import type { ShapeName } from './apiShapes';
import { statementQueryDoc } from '../statements/statementQuery';
import { advanceInput } from '../businessDate/advanceInput';
import { interestQueryDoc } from '../interest/interestQuery';
import { interestRateInput } from '../interest/rateInput';
import { forgotPasswordInput, resetPasswordInput } from '../auth/passwordReset';
import { verifyEmailInput } from '../mail/emailConfirmation';
import { notificationsInput } from '../mail/mailShapes';

export type HttpMethod = 'get' | 'post' | 'put' | 'patch' | 'delete';

/** What a successful answer carries. */
export interface SuccessDoc {
  readonly status: number;
  readonly description: string;
  /** `data` of the envelope: one shape, or a list of it; a paged list also answers `next` (http/keysetPage). */
  readonly data?: { readonly shape: ShapeName; readonly list?: boolean; readonly paged?: boolean };
  /** The envelope has a `message`. */
  readonly message?: boolean;
  /** Sign-in's answer: {message, token, user}, or (true) a second-factor challenge instead. */
  readonly signIn?: true | 'secondFactor';
  /** The whole body is this shape (no envelope). */
  readonly body?: ShapeName;
  /** Something other than JSON (metrics text, image bytes). */
  readonly contentType?: string;
}

export interface RouteDoc {
  readonly method: HttpMethod;
  /** Express style, relative to /api: `/user/admin/:id`. */
  readonly path: string;
  readonly summary: string;
  /** 'public' or the roles allowed (anyone else signed in: 403). */
  readonly access: 'public' | readonly Role[];
  readonly body?: z.ZodType;
  readonly query?: Readonly<Record<string, string>>;
  readonly success: SuccessDoc;
  /** Error statuses besides the generic ones (401/403 follow from access; 500 always). */
  readonly errors?: readonly number[];
  /** A command: answers X-Event-Position and honours Idempotency-Key. */
  readonly command?: boolean;
  /** Which feature serves it. */
  readonly feature?: 'transactions';
}

const ANY: readonly Role[] = ['customer', 'admin', 'auditor'];
const CUSTOMER_AREA: readonly Role[] = ['customer', 'admin'];
const ADMIN: readonly Role[] = ['admin'];
const user = { shape: 'User' } as const;
const CURSOR = 'Opaque cursor: the `next` of the previous page (400 when it is not one of this list)';

/** Every route of /api (except /audit/*, documented in docs/audit.md). The OpenAPI document is built from this list. */
export const routeCatalogue: readonly RouteDoc[] = [
  { method: 'get', path: '/health', summary: 'Liveness', access: 'public', success: { status: 200, description: '{data: {status: "ok"}}' } },
  {
    method: 'get',
    path: '/ready',
    summary: 'Readiness: database, Redis, event store and projector lag',
    access: 'public',
    success: { status: 200, description: '{data: {status, database, redis, eventStore, projector}}' },
    errors: [503],
  },
  { method: 'get', path: '/openapi.json', summary: 'This document', access: 'public', success: { status: 200, description: 'OpenAPI 3.1' } },

  {
    method: 'post',
    path: '/auth/signup',
    summary: 'Create a customer with a fresh 10-digit account number',
    access: 'public',
    body: signupInput,
    success: { status: 201, description: 'The new customer', message: true, data: user },
    errors: [400, 409, 429],
    command: true,
  },
  {
    method: 'post',
    path: '/auth/signin',
    summary: 'Sign in: a bearer token (HS256) and the user; with a second factor (or staff to enrol) a challenge instead',
    access: 'public',
    body: signinInput,
    success: { status: 200, description: '{message, token, user}, or {message, secondFactor: totp|enrol, challenge}', signIn: true },
    errors: [400, 401, 403, 429],
  },
  {
    method: 'post',
    path: '/auth/second-factor/enrol',
    summary: 'Staff during sign-in: the TOTP secret to enrol (the same while the challenge lives)',
    access: 'public',
    body: enrolChallengeInput,
    success: { status: 200, description: '{secret, otpauthUri, qrCode}', body: 'EnrolmentSecret' },
    errors: [400, 401, 403],
  },
  {
    method: 'post',
    path: '/auth/second-factor',
    summary: 'The second step of sign-in: a code (±1 step, each step once) or a recovery code (once)',
    access: 'public',
    body: secondFactorSignInInput,
    success: { status: 200, description: '{message, token, user} (+ recoveryCodes after an enrolment, + recoveryCodesLeft)', signIn: 'secondFactor' },
    errors: [400, 401, 403, 429],
  },
  {
    method: 'get',
    path: '/auth/second-factor',
    summary: "The caller's second factor: on or off, recovery codes left, required (staff)",
    access: ANY,
    success: { status: 200, description: '{data: {enabled, enrolledAt, recoveryCodesLeft, required}}', data: { shape: 'SecondFactorStatus' } },
  },
  {
    method: 'post',
    path: '/auth/second-factor/setup',
    summary: 'Settings: a new TOTP secret to confirm (usable 15 minutes)',
    access: ANY,
    success: { status: 200, description: '{secret, otpauthUri, qrCode}', body: 'EnrolmentSecret' },
    errors: [409],
  },
  {
    method: 'post',
    path: '/auth/second-factor/confirm',
    summary: 'Settings: turns the second factor on with a code of the set-up secret; ten recovery codes, shown once',
    access: ANY,
    body: confirmSecondFactorInput,
    success: { status: 200, description: '{message, recoveryCodes}', body: 'RecoveryCodes' },
    errors: [400, 409, 422, 429],
  },
  {
    method: 'delete',
    path: '/auth/second-factor',
    summary: 'A customer turns the second factor off with the password and a current code (staff: 403)',
    access: ['customer'],
    body: removeSecondFactorInput,
    success: { status: 200, description: 'Turned off; every other session ends', message: true },
    errors: [400, 422, 429],
    command: true,
  },
  {
    method: 'get',
    path: '/auth/sessions',
    summary: "The caller's sessions: device, address, created, last used, current",
    access: ANY,
    success: { status: 200, description: '{data: [session]}', data: { shape: 'Session', list: true } },
  },
  {
    method: 'delete',
    path: '/auth/sessions/:id',
    summary: "Ends one of the caller's sessions: its token is refused from its next request",
    access: ANY,
    success: { status: 200, description: '{message, data: {id, current}}', message: true },
    errors: [404],
  },
  {
    method: 'post',
    path: '/auth/sessions/revoke-others',
    summary: 'Ends every other session of the caller',
    access: ANY,
    success: { status: 200, description: '{message, data: {revoked}}', message: true },
  },
  {
    method: 'get',
    path: '/auth/sign-in-notices',
    summary: 'Sign-ins from a device not used before, until dismissed',
    access: ANY,
    success: { status: 200, description: '{data: [notice]}', data: { shape: 'SignInNotice', list: true } },
  },
  {
    method: 'delete',
    path: '/auth/sign-in-notices/:id',
    summary: 'Dismisses a new-device notice',
    access: ANY,
    success: { status: 200, description: 'Dismissed', message: true },
    errors: [404],
  },
  { method: 'post', path: '/auth/signout', summary: "Sign out: the token's session is revoked", access: ANY, success: { status: 200, description: 'Signed out', message: true } },
  { method: 'get', path: '/auth/user', summary: 'The signed-in user', access: ANY, success: { status: 200, description: 'The user', data: user } },
  {
    method: 'post',
    path: '/auth/change-password',
    summary: 'Change the password (staff: 12 characters; at most 72 bytes); every other session ends',
    access: ANY,
    body: changePasswordInput,
    success: { status: 200, description: 'Changed', message: true },
    errors: [400, 422, 429],
    command: true,
  },
  { method: 'get', path: '/user/me', summary: 'The signed-in user', access: ANY, success: { status: 200, description: 'The user', data: user } },
  {
    method: 'post',
    path: '/user/verification',
    summary: 'Submit the identity verification (images as data URLs, 10 MB each)',
    access: CUSTOMER_AREA,
    body: verificationInput,
    success: { status: 200, description: 'Submitted: status pending', message: true, data: user },
    errors: [400, 413, 422],
    command: true,
  },
  {
    method: 'patch',
    path: '/user/profile',
    summary: 'Edit e-mail, phone, address and state (names are read-only)',
    access: CUSTOMER_AREA,
    body: profileInput,
    success: { status: 200, description: 'The changed user', message: true, data: user },
    errors: [400, 409, 422],
    command: true,
  },
  {
    method: 'patch',
    path: '/user/profile-picture',
    summary: 'Set the profile picture (a data-URL image up to 10 MB)',
    access: CUSTOMER_AREA,
    body: profilePictureInput,
    success: { status: 200, description: 'The changed user', message: true, data: user },
    errors: [400, 413, 422],
    command: true,
  },
  {
    method: 'get',
    path: '/files/:id',
    summary: 'A stored image, to a user who uploaded it and to staff; 404 to anyone else, as for an unknown id',
    access: ANY,
    success: { status: 200, description: 'The image bytes', contentType: 'image/*' },
    errors: [404],
  },
  {
    method: 'post',
    path: '/cards/requests',
    summary: 'Request a card',
    access: CUSTOMER_AREA,
    body: cardRequestInput,
    success: { status: 201, description: "'Card request sent we will get back to you'", message: true },
    errors: [400],
    command: true,
  },
  {
    method: 'get',
    path: '/beneficiaries',
    summary: 'The payee directory; with ?accountNumber the recipient look-up (names only, rate limited)',
    access: CUSTOMER_AREA,
    query: { accountNumber: 'Account number to look up (4 to 17 digits; not paged)', limit: '1-500, default 100', cursor: CURSOR },
    success: { status: 200, description: 'Beneficiaries', data: { shape: 'Beneficiary', list: true, paged: true } },
    errors: [400, 429],
  },
  {
    method: 'post',
    path: '/beneficiaries',
    summary: 'Add a beneficiary to the directory',
    access: ADMIN,
    body: beneficiaryInput,
    success: { status: 201, description: "'Beneficiary added successfully'", message: true, data: { shape: 'Beneficiary' } },
    errors: [400, 409, 422],
    command: true,
  },
  {
    method: 'delete',
    path: '/beneficiaries/:id',
    summary: 'Remove a beneficiary',
    access: ADMIN,
    success: { status: 200, description: 'Removed', message: true },
    errors: [404],
    command: true,
  },
  {
    method: 'post',
    path: '/contacts',
    summary: 'Send a contact message (the hidden `website` field must stay empty)',
    access: 'public',
    body: contactInput,
    success: { status: 201, description: 'Received', message: true },
    errors: [400, 429],
    command: true,
  },
  {
    method: 'get',
    path: '/contacts',
    summary: 'The contact messages, newest first',
    access: ADMIN,
    query: { limit: '1-500, default 100', cursor: CURSOR },
    success: { status: 200, description: 'Messages', data: { shape: 'ContactMessage', list: true, paged: true } },
    errors: [400],
  },
  {
    method: 'delete',
    path: '/contacts/:id',
    summary: 'Delete a contact message',
    access: ADMIN,
    success: { status: 200, description: "'Contact deleted'", message: true },
    errors: [404],
    command: true,
  },

  {
    method: 'get',
    path: '/user/admin',
    summary: 'The customers, newest first',
    access: ADMIN,
    query: {
      search: 'Text in the name, e-mail, phone or account number (3 characters or more; 1-2 match the start of the e-mail or account number)',
      limit: '1-1000; without it every customer while there are at most 1,000, else the first page of 50',
      cursor: CURSOR,
      offset: 'Legacy, 0-10000, not with a cursor',
    },
    success: { status: 200, description: 'Customers', data: { shape: 'User', list: true, paged: true } },
    errors: [400],
  },
  {
    method: 'get',
    path: '/user/admin/email/:email',
    summary: 'One user by e-mail, with card requests',
    access: ADMIN,
    success: { status: 200, description: 'The user', data: { shape: 'AdminUser' } },
    errors: [404],
  },
  {
    method: 'put',
    path: '/user/admin/account/:id',
    summary: 'Set the account number and both balances (each by an audited adjustment)',
    access: ADMIN,
    body: adminAccountInput,
    success: { status: 200, description: 'The changed user', message: true, data: user },
    errors: [400, 404, 409, 422],
    command: true,
  },
  { method: 'get', path: '/user/admin/:id', summary: 'One user, with card requests', access: ADMIN, success: { status: 200, description: 'The user', data: { shape: 'AdminUser' } }, errors: [404] },
  {
    method: 'put',
    path: '/user/admin/:id',
    summary: "Edit a customer's profile, verification status, block, disable and payment pin",
    access: ADMIN,
    body: adminUserInput,
    success: { status: 200, description: 'The changed user', message: true, data: user },
    errors: [400, 404, 409, 422],
    command: true,
  },
  {
    method: 'delete',
    path: '/user/admin/:id',
    summary: 'Close a customer (gone from lists, cannot sign in; history kept)',
    access: ADMIN,
    success: { status: 200, description: 'Closed', message: true },
    errors: [404],
    command: true,
  },
  {
    method: 'get',
    path: '/user/admin/:id/second-factor',
    summary: "A user's second factor: on or off, recovery codes left",
    access: ADMIN,
    success: { status: 200, description: '{data: {enabled, enrolledAt, recoveryCodesLeft}}', data: { shape: 'SecondFactorStatus' } },
    errors: [404],
  },
  {
    method: 'post',
    path: '/user/admin/:id/second-factor/reset',
    summary: "Reset a user's second factor, with a reason (audited); staff enrol again; only another admin may reset an admin's",
    access: ADMIN,
    body: resetSecondFactorInput,
    success: { status: 200, description: '{message, data: {enabled: false}}; every session of the user ends', message: true },
    errors: [400, 404, 422],
    command: true,
  },

  {
    method: 'get',
    path: '/transaction',
    summary: 'The 5 most recent transactions',
    access: CUSTOMER_AREA,
    success: { status: 200, description: 'Transactions', data: { shape: 'Transaction', list: true } },
    feature: 'transactions',
  },
  {
    method: 'get',
    path: '/transaction/complete',
    summary: 'All transactions, newest first',
    access: CUSTOMER_AREA,
    query: { limit: '1-500, default 50', cursor: CURSOR, before: 'Legacy: a transaction id (continue after it) or an ISO date (older than it)' },
    success: { status: 200, description: 'Transactions', data: { shape: 'Transaction', list: true, paged: true } },
    errors: [400],
    feature: 'transactions',
  },
  {
    method: 'get',
    path: '/statements',
    summary: "The signed-in customer's statement of one account over whole UTC days, from the event log (csv and pdf stream as downloads)",
    access: CUSTOMER_AREA,
    query: statementQueryDoc,
    success: { status: 200, description: 'format=json: the statement; csv / pdf: an attachment statement-<account>-<from>-<to>.csv|pdf', data: { shape: 'Statement' } },
    errors: [400, 422],
  },
  {
    method: 'post',
    path: '/transaction/transfer',
    summary: 'Transfer money (6-digit payment pin)',
    access: CUSTOMER_AREA,
    body: transferInput,
    success: { status: 201, description: "'Transfer Successful'", message: true, data: { shape: 'Transaction' } },
    errors: [400, 422, 429],
    command: true,
    feature: 'transactions',
  },
  {
    method: 'post',
    path: '/standing-orders',
    summary: 'Create a standing order: the body of a transfer (pin checked the same way) plus its schedule; a first date of today pays at once',
    access: CUSTOMER_AREA,
    body: standingOrderInput,
    success: { status: 201, description: "'Standing order created', the order with its next date", message: true, data: { shape: 'StandingOrder' } },
    errors: [400, 422, 429],
    command: true,
  },
  {
    method: 'get',
    path: '/standing-orders',
    summary: "The signed-in user's standing orders: status, next date, latest occurrences",
    access: CUSTOMER_AREA,
    success: { status: 200, description: 'Standing orders, newest first', data: { shape: 'StandingOrder', list: true } },
  },
  {
    method: 'post',
    path: '/standing-orders/:id/pause',
    summary: 'Pause a standing order (its occurrences meanwhile are skipped)',
    access: CUSTOMER_AREA,
    success: { status: 200, description: "'Standing order paused'", message: true, data: { shape: 'StandingOrder' } },
    errors: [404, 422],
    command: true,
  },
  {
    method: 'post',
    path: '/standing-orders/:id/resume',
    summary: 'Resume a paused or suspended standing order from today',
    access: CUSTOMER_AREA,
    success: { status: 200, description: "'Standing order resumed'", message: true, data: { shape: 'StandingOrder' } },
    errors: [404, 422],
    command: true,
  },
  {
    method: 'delete',
    path: '/standing-orders/:id',
    summary: 'Cancel a standing order',
    access: CUSTOMER_AREA,
    success: { status: 200, description: "'Standing order cancelled'", message: true, data: { shape: 'StandingOrder' } },
    errors: [404],
    command: true,
  },
  {
    method: 'get',
    path: '/user/admin/:id/standing-orders',
    summary: "A customer's standing orders",
    access: ADMIN,
    success: { status: 200, description: 'Standing orders, newest first', data: { shape: 'StandingOrder', list: true } },
    errors: [404],
  },
  {
    method: 'get',
    path: '/transaction/admin',
    summary: 'All transactions, newest first',
    access: ADMIN,
    query: { limit: '1-500, default 500', cursor: CURSOR, before: 'Legacy: a transaction id or an ISO date' },
    success: { status: 200, description: 'Transactions', data: { shape: 'Transaction', list: true, paged: true } },
    errors: [400],
    feature: 'transactions',
  },
  {
    method: 'get',
    path: '/transaction/admin/:userId',
    summary: "A user's transactions, newest first",
    access: ADMIN,
    query: { limit: '1-500, default 500', cursor: CURSOR, before: 'Legacy: a transaction id or an ISO date' },
    success: { status: 200, description: 'Transactions', data: { shape: 'Transaction', list: true, paged: true } },
    errors: [400, 404],
    feature: 'transactions',
  },
  {
    method: 'post',
    path: '/transaction/admin/:userId',
    summary: 'Post a transaction to a customer account',
    access: ADMIN,
    body: adminTransactionInput,
    success: { status: 201, description: "'Transaction added successfully'", message: true, data: { shape: 'Transaction' } },
    errors: [400, 404, 422],
    command: true,
    feature: 'transactions',
  },
  {
    method: 'delete',
    path: '/transaction/admin/:id',
    summary: 'Reverse a transaction',
    access: ADMIN,
    success: { status: 200, description: 'Reversed', message: true },
    errors: [404, 422],
    command: true,
    feature: 'transactions',
  },
  {
    method: 'get',
    path: '/admin/business-date',
    summary: 'The business date, its mode and the last date closed',
    access: ['admin', 'auditor'],
    success: { status: 200, description: 'The business date', data: { shape: 'BusinessDate' } },
  },
  {
    method: 'post',
    path: '/admin/business-date/advance',
    summary: 'Manual mode: close the open business date and each following one, `days` (1–366, default 1) in all',
    access: ADMIN,
    body: advanceInput,
    success: { status: 200, description: 'The business date after the advance and the dates closed', data: { shape: 'BusinessDateAdvance' } },
    errors: [409],
  },
  {
    method: 'get',
    path: '/rates',
    summary: "Each account type's annual rate in force and any change scheduled (not past ones), with the APY",
    access: 'public',
    success: { status: 200, description: 'The rates', data: { shape: 'Rate', list: true } },
  },
  {
    method: 'put',
    path: '/admin/rates',
    summary: 'Schedule a rate change from a business date after the current one (a second change for the same account and date replaces the first)',
    access: ADMIN,
    body: interestRateInput,
    success: { status: 200, description: 'The rates as GET /rates lists them', data: { shape: 'Rate', list: true } },
    errors: [400, 422],
    command: true,
  },
  {
    method: 'get',
    path: '/interest',
    summary: "The signed-in customer's interest: savings rate and APY, accrued this month, paid in the year, the year's payments; format=pdf: the year's interest statement",
    access: CUSTOMER_AREA,
    query: interestQueryDoc,
    success: { status: 200, description: 'The interest (or application/pdf)', data: { shape: 'Interest' } },
    errors: [400, 404],
  },
  // E-mail (docs/email.md)
  { method: 'get', path: '/bank', summary: 'The bank: name, routing number, address, phone, e-mail', access: 'public', success: { status: 200, description: 'The bank', data: { shape: 'Bank' } } },
  {
    method: 'post',
    path: '/auth/forgot-password',
    summary: 'Send a password reset link (valid once, 30 minutes) if an account has this address; the same answer for any address',
    access: 'public',
    body: forgotPasswordInput,
    success: { status: 202, description: 'The same answer for any address', message: true },
    errors: [400, 429],
  },
  {
    method: 'post',
    path: '/auth/reset-password',
    summary: "A new password with the link's token (and a code or a recovery code with a second factor); every session ends",
    access: 'public',
    body: resetPasswordInput,
    success: { status: 200, description: 'Password reset', message: true },
    errors: [400],
  },
  {
    method: 'post',
    path: '/auth/verify-email',
    summary: "Confirm the e-mail address with the link's token",
    access: 'public',
    body: verifyEmailInput,
    success: { status: 200, description: 'Confirmed', message: true },
    errors: [400],
  },
  {
    method: 'post',
    path: '/user/verify-email',
    summary: 'Send the confirmation link again (202; 200 when already confirmed)',
    access: ['customer'],
    success: { status: 202, description: 'Sent', message: true },
    errors: [429],
  },
  {
    method: 'get',
    path: '/user/notifications',
    summary: 'Every kind of notice, whether it is sent, and whether it is locked (security notices)',
    access: ['customer'],
    success: { status: 200, description: 'The notification settings', data: { shape: 'NotificationSetting', list: true } },
  },
  {
    method: 'put',
    path: '/user/notifications',
    summary: 'Turn notices on or off (security notices cannot be turned off)',
    access: ['customer'],
    body: notificationsInput,
    success: { status: 200, description: 'The notification settings', data: { shape: 'NotificationSetting', list: true } },
    errors: [400, 422],
  },
];

/** Money fields of request bodies: dollars as a JSON number or a decimal string. */
export const dollarsSchema = z.union([z.number(), z.string()]).describe('US dollars, at most two decimals');
