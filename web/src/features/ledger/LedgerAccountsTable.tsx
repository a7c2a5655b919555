import { Link } from 'react-router';
import { formatMoney } from '../../components/money';
import { ledgerEntriesPath } from './ledgerPaths';
import type { LedgerAccountRow } from './ledgerTypes';

export interface LedgerAccountsTableProps {
  readonly caption: string;
  readonly accounts: readonly LedgerAccountRow[];
  /** The trial balance's totals, shown as the table's last row. */
  readonly totals?: { readonly debits: number; readonly credits: number };
}

/** Every account of the chart: code, name (linking to its entries), type, debits, credits and balance. */
export function LedgerAccountsTable({ caption, accounts, totals }: LedgerAccountsTableProps) {
  return (
    <div className="audit-table-wrap">
      <table className="audit-table stack-table ledger-table">
        <caption>{caption}</caption>
        <thead>
          <tr>
            <th scope="col">Code</th>
            <th scope="col">Account</th>
            <th scope="col">Type</th>
            <th scope="col" className="num">
              Debits
            </th>
            <th scope="col" className="num">
              Credits
            </th>
            <th scope="col" className="num">
              Balance
            </th>
          </tr>
        </thead>
        <tbody>
          {accounts.map((account) => (
            <tr key={account.key}>
              <td data-label="Code" className="ledger-mono">
                {account.code}
              </td>
              <th scope="row" data-label="Account">
                <Link to={ledgerEntriesPath(account.key)}>{account.name}</Link>
                <span className="audit-muted ledger-key"> {account.key}</span>
              </th>
              <td data-label="Type">{account.type}</td>
              <td data-label="Debits" className="num">
                {formatMoney(account.debits)}
              </td>
              <td data-label="Credits" className="num">
                {formatMoney(account.credits)}
              </td>
              <td data-label="Balance" className="num">
                {formatMoney(account.balance)}
              </td>
            </tr>
          ))}
        </tbody>
        {totals ? (
          <tfoot>
            <tr className="ledger-totals">
              <th scope="row" colSpan={3} data-label="">
                Totals
              </th>
              <td data-label="Debits" className="num" data-testid="total-debits">
                {formatMoney(totals.debits)}
              </td>
              <td data-label="Credits" className="num" data-testid="total-credits">
                {formatMoney(totals.credits)}
              </td>
              <td className="ledger-stack-hidden" />
            </tr>
          </tfoot>
        ) : null}
      </table>
    </div>
  );
}
