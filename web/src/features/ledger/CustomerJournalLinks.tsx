import { Link } from 'react-router';
import { controlAccountKeyOf } from '@bank/domain';
import { ledgerEntriesPath } from './ledgerPaths';

const kinds = [
  ['savings', 'Savings'],
  ['checking', 'Checking'],
] as const;

/** Links to a customer's journal lines: the entries of each control account, filtered by the customer's id. */
export function CustomerJournalLinks({ customerId, className }: { customerId: string; className?: string }) {
  return (
    <p className={className}>
      <span>Journal lines in the ledger: </span>
      {kinds.map(([kind, label], index) => (
        <span key={kind}>
          {index > 0 ? ' · ' : null}
          <Link to={ledgerEntriesPath(controlAccountKeyOf[kind], { customerId })}>{`${label} journal lines`}</Link>
        </span>
      ))}
    </p>
  );
}
