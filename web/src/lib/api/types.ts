/** Shapes of the HTTP contract (shared/design/API.md). Money is in dollars at this edge. */
export type VerificationStatus = 'awaiting' | 'pending' | 'verified' | 'failed';
export type Role = 'customer' | 'admin' | 'auditor';
export type AccountKind = 'savings' | 'checking';

export interface User {
  _id: string;
  firstName: string;
  lastName: string;
  email: string;
  phone: string;
  location: { address: string; state: string };
  account: { number: string; savings: number; checking: number };
  profilePicture: { url: string } | null;
  verificationStatus: VerificationStatus;
  verification: {
    documentType: string;
    documentFront: { url: string };
    documentBack: { url: string };
  } | null;
  isBlocked: boolean;
  isDisabled: boolean;
  hasPaymentPin: boolean;
  isAdmin: boolean;
  role: Role;
  createdAt: string;
  /** The e-mail address was confirmed through the link the bank sent (false from sign-up and after a change). */
  emailVerified?: boolean;
  cardRequests?: { _id: string; cardType: string | null; requestedAt: string }[];
}

export type TransactionStatus = 'completed' | 'pending' | 'failed' | 'reversed';

export interface Transaction {
  _id: string;
  amount: number;
  transactionType: 'debit' | 'credit';
  date: string;
  description: string;
  account: AccountKind;
  status: TransactionStatus;
  balanceAfter: number;
  transferId?: string;
}

export interface Beneficiary {
  _id: string;
  name: string;
  accountNumber: string;
  bankName?: string;
}

export interface ContactMessage {
  _id: string;
  name: string;
  email: string;
  phone: string;
  subject: string;
  message: string;
  createdAt: string;
}

export interface Envelope<T> {
  message?: string;
  data: T;
}

export interface SignInAnswer {
  message: string;
  token: string;
  user: User;
  /** Ten recovery codes, shown once: when the sign-in completed a second-factor enrolment. */
  recoveryCodes?: string[];
  /** After signing in with a recovery code: how many are left. */
  recoveryCodesLeft?: number;
}

/** POST /auth/signin for a user with a second factor (totp) or staff who must enrol one (enrol): no token yet. */
export interface SecondFactorChallenge {
  message: string;
  secondFactor: 'totp' | 'enrol';
  challenge: string;
}

/** A TOTP secret to enrol: the key as text, its otpauth:// URI and a QR code of it (a data URL). */
export interface EnrolmentSecret {
  secret: string;
  otpauthUri: string;
  qrCode: string;
}

export interface SecondFactorStatus {
  enabled: boolean;
  enrolledAt: string | null;
  recoveryCodesLeft: number;
  /** Staff: the bank requires it (cannot be turned off). */
  required?: boolean;
}

/** One sign-in of the user (GET /auth/sessions). */
export interface SessionInfo {
  id: string;
  device: string;
  address: string;
  createdAt: string;
  lastUsedAt: string;
  current: boolean;
}

/** A sign-in from a device the user had not used before (GET /auth/sign-in-notices). */
export interface SignInNotice {
  id: string;
  device: string;
  address: string;
  createdAt: string;
}

/** The e-mail notices a customer can turn on and off, and the security notices that are always sent (locked). */
export type NotificationKind =
  | 'moneyReceived'
  | 'transferReturned'
  | 'standingOrderFailed'
  | 'interestPaid'
  | 'statementReady'
  | 'newDevice'
  | 'passwordChanged'
  | 'secondFactorChanged';

/** One kind of e-mail notice (GET/PUT /user/notifications). */
export interface NotificationSetting {
  kind: NotificationKind;
  enabled: boolean;
  /** A security notice: always sent, cannot be turned off. */
  locked: boolean;
}
