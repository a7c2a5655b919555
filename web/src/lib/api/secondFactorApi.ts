import { api, apiRequest } from './apiClient';
import type { Envelope, EnrolmentSecret, SecondFactorStatus, SessionInfo, SignInAnswer, SignInNotice } from './types';

/** The second step of sign-in: a code of the authenticator app, or a recovery code. */
export type SecondFactorProof = { code: string } | { recoveryCode: string };

/** POST /auth/second-factor: completes a sign-in (or, for staff, an enrolment: the answer has the recovery codes). */
export function completeSecondFactor(challenge: string, proof: SecondFactorProof): Promise<SignInAnswer> {
  return api.post<SignInAnswer>('/auth/second-factor', { challenge, ...proof });
}

/** POST /auth/second-factor/enrol: the secret staff enrol during sign-in (the same while the challenge lives). */
export function enrolDuringSignIn(challenge: string): Promise<EnrolmentSecret> {
  return api.post<EnrolmentSecret>('/auth/second-factor/enrol', { challenge });
}

export const secondFactorApi = {
  status: () => api.get<Envelope<SecondFactorStatus>>('/auth/second-factor').then((answer) => answer.data),
  setup: () => api.post<EnrolmentSecret>('/auth/second-factor/setup', {}),
  confirm: (code: string) => api.post<{ message: string; recoveryCodes: string[] }>('/auth/second-factor/confirm', { code }),
  remove: (password: string, code: string) => apiRequest<{ message: string }>('DELETE', '/auth/second-factor', { body: { password, code } }),
};

export const sessionsApi = {
  list: () => api.get<Envelope<SessionInfo[]>>('/auth/sessions').then((answer) => answer.data),
  revoke: (id: string) => api.delete<{ message: string; data: { id: string; current: boolean } }>(`/auth/sessions/${encodeURIComponent(id)}`),
  revokeOthers: () => api.post<{ message: string; data: { revoked: number } }>('/auth/sessions/revoke-others'),
  notices: () => api.get<Envelope<SignInNotice[]>>('/auth/sign-in-notices').then((answer) => answer.data),
  dismissNotice: (id: string) => api.delete<{ message: string }>(`/auth/sign-in-notices/${encodeURIComponent(id)}`),
};

export const adminSecondFactorApi = {
  status: (userId: string) => api.get<Envelope<SecondFactorStatus>>(`/user/admin/${encodeURIComponent(userId)}/second-factor`).then((answer) => answer.data),
  reset: (userId: string, reason: string) => api.post<{ message: string }>(`/user/admin/${encodeURIComponent(userId)}/second-factor/reset`, { reason }),
};
