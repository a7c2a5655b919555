import { Link } from 'react-router';
import { formatMoney } from '../../components/money';
import { formatInstant } from '../audit/auditFormat';
import type { LedgerEntry } from './ledgerTypes';

/** An account's journal lines, in log order (oldest first): when, business date, description, customer, debit or credit. */
export function EntriesTable({ entries, caption }: { entries: readonly LedgerEntry[]; caption: string }) {
  return (
    <div className="audit-table-wrap">
      <table className="audit-table stack-table ledger-table ledger-entries">
        <caption>{caption}</caption>
        <thead>
          <tr>
            <th scope="col">When</th>
            <th scope="col">Business date</th>
            <th scope="col">Description</th>
            <th scope="col">Customer</th>
            <th scope="col" className="num">
              Debit
            </th>
            <th scope="col" className="num">
              Credit
            </th>
          </tr>
        </thead>
        <tbody>
          {entries.map((entry, index) => (
            // One event may post several lines to one account; the list only grows at its end.
            <tr key={`${entry.position}:${index}`}>
              <td data-label="When">
                <time dateTime={entry.at}>{formatInstant(entry.at)}</time>
                <div className="audit-muted ledger-small">position {entry.position}</div>
              </td>
              <td data-label="Business date">{entry.businessDate}</td>
              <td data-label="Description">
                {entry.description}
                {entry.transferId ? <div className="audit-muted ledger-small">transfer {entry.transferId}</div> : null}
                {entry.actorId ? <div className="audit-muted ledger-small">by {entry.actorId}</div> : null}
              </td>
              <td data-label="Customer">
                {entry.customerId ? (
                  <Link to={`/audit/users/${entry.customerId}`} title={entry.customerId}>
                    {entry.customerId.slice(0, 8)}
                  </Link>
                ) : (
                  '—'
                )}
                {entry.account ? <span className="audit-muted"> {entry.account}</span> : null}
              </td>
              <td data-label="Debit" className="num">
                {entry.side === 'debit' ? formatMoney(entry.amount) : ''}
              </td>
              <td data-label="Credit" className="num">
                {entry.side === 'credit' ? formatMoney(entry.amount) : ''}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
