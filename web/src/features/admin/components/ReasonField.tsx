import type { ChangeEvent } from 'react';
import { TextAreaField } from '../../../components/Field';
import { ledgerAccountName } from '../../ledger/ledgerChart';

/**
 * The longest reason an admin may give for a staff edit (the API answers 400 beyond it).
 * TODO(issue 27): import MAX_REASON_LENGTH from '@bank/domain/limits' once "Domain: the books" is on main.
 */
export const MAX_REASON_LENGTH = 500;

export interface ReasonFieldProps {
  readonly value: string;
  readonly onChange: (event: ChangeEvent<HTMLTextAreaElement>) => void;
  /** The ledger account that takes the other side of the admin's entry ('staff-adjustments', 'staff-postings'). */
  readonly otherSide: string;
  readonly error?: string;
}

/** The message for a reason the API would refuse, else undefined. */
export function reasonProblem(reason: string): string | undefined {
  return reason.trim().length > MAX_REASON_LENGTH ? `Reason must be at most ${MAX_REASON_LENGTH} characters` : undefined;
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
          <span className="admin-reason-side">The other side of this edit is booked to {ledgerAccountName(otherSide)}.</span>{' '}
          <span>Kept in the audit log and on the journal entry.</span>{' '}
          <span className="admin-reason-count">
            {value.length} / {MAX_REASON_LENGTH} characters
          </span>
        </>
      }
    />
  );
}
