import { Link } from 'react-router';
import { ledgerAccountOf } from '@bank/domain';
import { EmptyState } from '../../components/EmptyState';
import { formatMoney } from '../../components/money';
import { formatInstant } from '../audit/auditFormat';
import { DifferenceCell } from './DifferenceCell';
import { centsToDecimal, dollarsToCents, sumCents } from './ledgerMoney';
import { ledgerEntriesPath } from './ledgerPaths';
import type { ClearingReconciliation, OpenClearingItem } from './ledgerTypes';

function OpenItems({ items }: { items: readonly OpenClearingItem[] }) {
  if (items.length === 0) return <EmptyState title="No open items." />;
  return (
    <div className="audit-table-wrap">
      <table className="audit-table stack-table ledger-table">
        <caption>{items.length === 1 ? '1 open item' : `${items.length} open items`}</caption>
        <thead>
          <tr>
            <th scope="col">Transfer</th>
            <th scope="col">Open since</th>
            <th scope="col" className="num">
              Amount
            </th>
          </tr>
        </thead>
        <tbody>
          {items.map((item) => (
            <tr key={item.transferId}>
              <td data-label="Transfer" className="ledger-mono">
                {item.transferId}
              </td>
              <td data-label="Open since">
                <time dateTime={item.since}>{formatInstant(item.since)}</time>
              </td>
              <td data-label="Amount" className="num">
                {formatMoney(item.amount)}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/**
 * A clearing account against its open items (transfers debited and not yet credited, settled or returned). The
 * difference is summed in integer cents; when it is not zero the open items show at once, else on request.
 */
export function ClearingAccountCard({ account }: { account: ClearingReconciliation }) {
  const openCents = sumCents(account.openItems.map((item) => item.amount));
  const differenceCents = dollarsToCents(account.balance) - openCents;
  const reconciled = differenceCents === 0n;
  const name = ledgerAccountOf(account.key)?.name ?? account.key;
  return (
    <div className={`ledger-clearing${reconciled ? '' : ' ledger-row-bad'}`}>
      <h4>
        <Link to={ledgerEntriesPath(account.key)}>{name}</Link>
      </h4>
      <div className="audit-table-wrap">
        <table className="audit-table stack-table ledger-table">
          <caption className="visually-hidden">{name} against its open items</caption>
          <thead>
            <tr>
              <th scope="col" className="num">
                Balance
              </th>
              <th scope="col" className="num">
                Open items
              </th>
              <th scope="col" className="num">
                Difference
              </th>
            </tr>
          </thead>
          <tbody>
            <tr>
              <td data-label="Balance" className="num">
                {formatMoney(account.balance)}
              </td>
              <td data-label="Open items" className="num">
                {formatMoney(centsToDecimal(openCents))} ({account.openItems.length})
              </td>
              <DifferenceCell difference={centsToDecimal(differenceCents)} />
            </tr>
          </tbody>
        </table>
      </div>
      {reconciled ? (
        account.openItems.length > 0 ? (
          <details>
            <summary>Open items of {name}</summary>
            <OpenItems items={account.openItems} />
          </details>
        ) : null
      ) : (
        <OpenItems items={account.openItems} />
      )}
    </div>
  );
}
