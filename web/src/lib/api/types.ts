/**
 * Shapes of the HTTP contract (shared/design/API.md). Money is in dollars at this edge. The answers' shapes are those
 * generated from the API's OpenAPI document (openApiTypes.ts, `npm run api:types`); what is here names them for the app.
 */
import type { components } from './openApiTypes';

type Shapes = components['schemas'];

export type User = Shapes['User'] & Partial<Pick<Shapes['AdminUser'], 'cardRequests'>>;
export type VerificationStatus = User['verificationStatus'];
export type Role = User['role'];
export type AccountKind = Shapes['Transaction']['account'];
export type Transaction = Shapes['Transaction'];
export type TransactionStatus = Transaction['status'];
export type Beneficiary = Shapes['Beneficiary'];
export type ContactMessage = Shapes['ContactMessage'];
/** POST /auth/signin for a user with a second factor (totp) or staff who must enrol one (enrol): no token yet. */
export type SecondFactorChallenge = Shapes['SecondFactorChallenge'];
/** A TOTP secret to enrol: the key as text, its otpauth:// URI and a QR code of it (a data URL). */
export type EnrolmentSecret = Shapes['EnrolmentSecret'];
export type SecondFactorStatus = Shapes['SecondFactorStatus'];
/** One sign-in of the user (GET /auth/sessions). */
export type SessionInfo = Shapes['Session'];
/** A sign-in from a device the user had not used before (GET /auth/sign-in-notices). */
export type SignInNotice = Shapes['SignInNotice'];
/** One kind of e-mail notice (GET/PUT /user/notifications). */
export type NotificationSetting = Shapes['NotificationSetting'];
/** The e-mail notices a customer can turn on and off, and the security notices that are always sent (locked). */
export type NotificationKind = NotificationSetting['kind'];

export interface Envelope<T> {
  message?: string;
  data: T;
}

/** POST /auth/signin, POST /auth/second-factor: the token and the user. */
export interface SignInAnswer {
  message: string;
  token: string;
  user: User;
  /** Ten recovery codes, shown once: when the sign-in completed a second-factor enrolment. */
  recoveryCodes?: string[];
  /** After signing in with a recovery code: how many are left. */
  recoveryCodesLeft?: number;
}
