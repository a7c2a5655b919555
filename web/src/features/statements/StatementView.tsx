import { EmptyState } from '../../components/EmptyState';
import { formatDate, formatMoney } from '../../components/money';
import type { Statement } from './statementTypes';
import './statements.css';

const accountName = { checking: 'Checking', savings: 'Savings' } as const;

function signed(type: 'credit' | 'debit', amount: number): string {
  return type === 'credit' ? `+${formatMoney(amount)}` : `-${formatMoney(amount)}`;
}

/** A statement: the opening balance, every transaction with the running balance, totals in and out, the closing balance. */
export function StatementView({ statement }: { statement: Statement }) {
  const title = `${accountName[statement.account]} ${statement.accountNumber}, ${formatDate(`${statement.from}T12:00:00Z`)} to ${formatDate(`${statement.to}T12:00:00Z`)}`;
  return (
    <div className="statement">
      <p className="statement-title">{title}</p>
      <dl className="statement-summary">
        <div>
          <dt>Opening balance</dt>
          <dd data-testid="statement-opening">{formatMoney(statement.openingBalance)}</dd>
        </div>
        <div>
          <dt>Money in</dt>
          <dd data-testid="statement-in">+{formatMoney(statement.totalIn)}</dd>
        </div>
        <div>
          <dt>Money out</dt>
          <dd data-testid="statement-out">-{formatMoney(statement.totalOut)}</dd>
        </div>
        <div>
          <dt>Closing balance</dt>
          <dd data-testid="statement-closing">{formatMoney(statement.closingBalance)}</dd>
        </div>
      </dl>
      {statement.transactions.length === 0 ? (
        <EmptyState title="No transactions in this period" />
      ) : (
        // Scrolls sideways on a narrow screen: focusable, so a keyboard can scroll it too.
        <div className="statement-table-wrap" role="region" aria-label="Transactions" tabIndex={0}>
          <table className="statement-table">
            <caption className="visually-hidden">Transactions ({statement.transactions.length})</caption>
            <thead>
              <tr>
                <th scope="col">Date</th>
                <th scope="col">Description</th>
                <th scope="col" className="statement-number">
                  Amount
                </th>
                <th scope="col" className="statement-number">
                  Balance
                </th>
              </tr>
            </thead>
            <tbody>
              <tr className="statement-edge">
                <td>{formatDate(`${statement.from}T12:00:00Z`)}</td>
                <td>Opening balance</td>
                <td />
                <td className="statement-number">{formatMoney(statement.openingBalance)}</td>
              </tr>
              {statement.transactions.map((line) => (
                <tr key={line.id}>
                  <td>
                    <time dateTime={line.date}>{formatDate(line.date)}</time>
                  </td>
                  <td>{line.description || (line.type === 'credit' ? 'Credit' : 'Debit')}</td>
                  <td className={`statement-number statement-${line.type}`}>{signed(line.type, line.amount)}</td>
                  <td className="statement-number">{formatMoney(line.balanceAfter)}</td>
                </tr>
              ))}
              <tr className="statement-edge">
                <td>{formatDate(`${statement.to}T12:00:00Z`)}</td>
                <td>Closing balance</td>
                <td />
                <td className="statement-number">{formatMoney(statement.closingBalance)}</td>
              </tr>
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}
