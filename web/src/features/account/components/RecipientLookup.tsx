import { ApiError } from '../../../lib/api/apiError';
import { useAccountLookup } from '../../../lib/api/queries/useAccountLookup';
import { useDebouncedValue } from '../../../lib/hooks/useDebouncedValue';
import { wantsRecipientLookup } from '@bank/domain/forms';
import type { TransferDraft } from '../model/transferDraft';

export const LOOKUP_DEBOUNCE_MS = 400;

export type LookupState =
  | { readonly kind: 'idle' }
  | { readonly kind: 'searching' }
  | { readonly kind: 'found'; readonly name: string }
  | { readonly kind: 'notFound' }
  /** `attempt` tells one failure from the next (the number looked up and when it failed), so each is announced once. */
  | { readonly kind: 'failed'; readonly message: string; readonly attempt: string };

/**
 * The recipient lookup of the transfer form: once bank name and an account number of more than 9 digits are
 * set and the number has stopped changing for a moment, GET /api/beneficiaries?accountNumber=N.
 */
export function useRecipientLookup(draft: Pick<TransferDraft, 'accountNumber' | 'bankName'>): LookupState {
  const wanted = wantsRecipientLookup(draft) ? draft.accountNumber.trim() : '';
  const settled = useDebouncedValue(wanted, LOOKUP_DEBOUNCE_MS);
  const lookup = useAccountLookup(settled, settled !== '' && settled === wanted);
  if (wanted === '') return { kind: 'idle' };
  if (settled !== wanted || lookup.isFetching) return { kind: 'searching' };
  if (lookup.isError) {
    return {
      kind: 'failed',
      message: lookup.error instanceof ApiError && lookup.error.message ? lookup.error.message : 'An error occurred',
      attempt: `${settled}@${lookup.errorUpdatedAt}`,
    };
  }
  if (lookup.data) return { kind: 'found', name: lookup.data };
  if (lookup.data === null) return { kind: 'notFound' };
  return { kind: 'searching' };
}
