import { api } from '../../lib/api/apiClient';
import type { Envelope, User } from '../../lib/api/types';

export interface SignUpRequest {
  firstName: string;
  lastName: string;
  email: string;
  phone: string;
  password: string;
  address: string;
  state: string;
}

/** POST /api/auth/signup: registers a customer (status awaiting). Rejects with the server's ApiError (409 when the e-mail is taken). */
export function signUp(request: SignUpRequest): Promise<Envelope<User>> {
  return api.post<Envelope<User>>('/auth/signup', request);
}

export interface VerificationRequest {
  passport: string;
  documentFront: string;
  documentBack: string;
  documentType: string;
  dateOfBirth: string;
}

/** POST /api/user/verification with the images as data URLs. */
export function submitVerification(request: VerificationRequest): Promise<{ message?: string }> {
  return api.post<{ message?: string }>('/user/verification', request);
}
