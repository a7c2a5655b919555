import { Link } from 'react-router';
import { formatMoney } from '../../components/money';
import { useInterest } from './interestApi';
import { formatPercent } from './interestFormat';
import './interest.css';

/**
 * On the portal's savings card: the savings rate in force and its APY (from the API, never a constant), the interest
 * accrued this month and paid this year, and a link to the interest page (payments and the PDF statement).
 */
export function SavingsInterest() {
  const interest = useInterest(undefined);
  if (interest.isPending) return <span className="savings-interest-status">Loading interest…</span>;
  if (interest.isError) return <span className="savings-interest-status">Interest figures are unavailable right now.</span>;
  const { annualRate, apy, accruedThisMonth, paidThisYear } = interest.data;
  return (
    <>
      <dl className="savings-interest" data-testid="savings-interest">
        <div>
          <dt>Rate</dt>
          <dd>{formatPercent(annualRate)} a year</dd>
        </div>
        <div>
          <dt>APY</dt>
          <dd>{formatPercent(apy)}</dd>
        </div>
        <div>
          <dt>Accrued this month</dt>
          <dd>{formatMoney(accruedThisMonth)}</dd>
        </div>
        <div>
          <dt>Paid this year</dt>
          <dd>{formatMoney(paidThisYear)}</dd>
        </div>
      </dl>
      <Link to="/account/interest" className="savings-interest-link">
        Interest details and statement
      </Link>
    </>
  );
}
