import { api } from './apiClient';
import type { Envelope, NotificationKind, NotificationSetting } from './types';

/** A message-only answer of the API. */
export interface MessageAnswer {
  message: string;
}

/** What proves the second factor when a password is reset: a code of the authenticator app or a recovery code. */
export type ResetProof = { code: string } | { recoveryCode: string } | Record<string, never>;

export interface ResetPasswordRequest {
  token: string;
  newPassword: string;
}

/**
 * The e-mail routes of the contract (API.md, "E-mail"). The public ones are sent without the stored session, so a
 * 401 (a wrong code) does not sign out a visitor who happens to be signed in on this browser.
 */
export const emailApi = {
  /** POST /auth/forgot-password: always 202 with the same message, whether or not the address is known. */
  forgotPassword: (email: string) => api.post<MessageAnswer>('/auth/forgot-password', { email }, { anonymous: true }),
  /** POST /auth/reset-password: 200; 400 'Invalid or expired link'; 401 'Invalid code' when a second factor is due. */
  resetPassword: (request: ResetPasswordRequest, proof: ResetProof = {}) =>
    api.post<MessageAnswer>('/auth/reset-password', { ...request, ...proof }, { anonymous: true }),
  /** POST /auth/verify-email: 200 'E-mail address confirmed'; 400 'Invalid or expired link'. */
  verifyEmail: (token: string) => api.post<MessageAnswer>('/auth/verify-email', { token }, { anonymous: true }),
  /** POST /user/verify-email: sends the signed-in customer a new confirmation link (202). */
  resendVerification: () => api.post<MessageAnswer>('/user/verify-email'),
  /** GET /user/notifications: every kind, with whether it is on and whether it is locked. */
  notifications: () => api.get<Envelope<NotificationSetting[]>>('/user/notifications').then((answer) => answer.data),
  /** PUT /user/notifications: turns kinds on or off; answers the whole list. */
  setNotifications: (changes: Partial<Record<NotificationKind, boolean>>) =>
    api.put<Envelope<NotificationSetting[]>>('/user/notifications', changes).then((answer) => answer.data),
};
