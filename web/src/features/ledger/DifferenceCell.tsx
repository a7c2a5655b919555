import { formatMoney } from '../../components/money';

/** A reconciliation difference (dollars, or an exact decimal string): zero says so, anything else is red. */
export function DifferenceCell({ difference }: { difference: number | `${number}` }) {
  const zero = Number(difference) === 0;
  return (
    <td data-label="Difference" className={`num ${zero ? 'ledger-ok' : 'ledger-bad'}`} data-testid="difference">
      {formatMoney(difference)}
      <span className="ledger-verdict">{zero ? 'reconciled' : 'differs'}</span>
    </td>
  );
}
