import type { ChangeEvent } from 'react';
import { TextAreaField } from '../../../components/Field';
import { ledgerAccountOf, type LedgerAccountKey } from '@bank/domain';
import { MAX_REASON_LENGTH } from '@bank/domain/limits';

export interface ReasonFieldProps {
  readonly value: string;
  readonly onChange: (event: ChangeEvent<HTMLTextAreaElement>) => void;
  /** The ledger account that takes the other side of the admin's entry ('staff-adjustments', 'staff-postings'). */
  readonly otherSide: LedgerAccountKey;
  readonly error?: string;
}

/**
 * The optional reason of an admin's balance edit or added transaction: kept in the audit log and on the journal
 * entry, with a character counter and the ledger account that takes the other side of the entry.
 */
export function ReasonField({ value, onChange, otherSide, error }: ReasonFieldProps) {
  return (
    <TextAreaField
      label="Reason (optional)"
      rows={2}
      maxLength={MAX_REASON_LENGTH}
      value={value}
      onChange={onChange}
      error={error}
      hint={
        <>
          <span className="admin-reason-side">The other side of this edit is booked to {ledgerAccountOf(otherSide)?.name ?? otherSide}.</span>{' '}
          <span>Kept in the audit log and on the journal entry.</span>{' '}
          <span className="admin-reason-count">
            {value.length} / {MAX_REASON_LENGTH} characters
          </span>
        </>
      }
    />
  );
}
