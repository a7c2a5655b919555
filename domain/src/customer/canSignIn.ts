import type { CustomerState } from './customerState';

export const INVALID_CREDENTIALS_MESSAGE = 'Invalid email or password';
export const ACCOUNT_DISABLED_MESSAGE = 'Your account has been disabled, please contact bank support';

export type SignInCheck =
  | { readonly ok: true }
  | {
      readonly ok: false;
      /** not_found and closed look the same to the client as a wrong password (401); disabled is 403. */
      readonly reason: 'not_found' | 'closed' | 'disabled';
      readonly httpStatus: 401 | 403;
      readonly message: string;
    };

/**
 * May this user sign in (the password is checked by the service)? Unknown and closed users get the same 401 as a wrong
 * password; a disabled user gets 403. Blocking does not prevent sign-in (it only stops transfers).
 */
export function canSignIn(state: CustomerState): SignInCheck {
  if (state.status === 'unregistered') return { ok: false, reason: 'not_found', httpStatus: 401, message: INVALID_CREDENTIALS_MESSAGE };
  if (state.status === 'closed') return { ok: false, reason: 'closed', httpStatus: 401, message: INVALID_CREDENTIALS_MESSAGE };
  if (state.isDisabled) return { ok: false, reason: 'disabled', httpStatus: 403, message: ACCOUNT_DISABLED_MESSAGE };
  return { ok: true };
}
