import { useId, useState } from 'react';
import { Alert } from '../../components/Alert';
import { Button } from '../../components/Button';
import { DetailList } from '../../components/DetailList';
import { EmptyState } from '../../components/EmptyState';
import { formatMoney } from '../../components/money';
import { LoadingBlock } from '../../components/Spinner';
import { errorMessage } from '../../lib/api/apiError';
import { downloadInterestPdf, useInterest } from './interestApi';
import { ACCOUNT_LABELS, formatPercent, monthLabel } from './interestFormat';
import type { Interest } from './interestTypes';
import './interest.css';

/** Years a customer may pick: the business date's year and the four before it. */
const YEARS_SHOWN = 5;

/** The savings rate, this month's accrual and the year's total, as labelled figures. */
export function interestFigures(interest: Interest) {
  return [
    { label: 'Savings rate', value: `${formatPercent(interest.annualRate)} a year` },
    { label: 'APY', value: formatPercent(interest.apy) },
    { label: 'Accrued this month', value: formatMoney(interest.accruedThisMonth) },
    { label: `Paid in ${interest.year}`, value: formatMoney(interest.paidThisYear) },
  ];
}

function PaymentsTable({ interest }: { interest: Interest }) {
  if (interest.payments.length === 0) {
    return <EmptyState title={`No interest paid in ${interest.year}`}>Interest is paid on the last day of each month.</EmptyState>;
  }
  return (
    // Focusable: on a phone the table scrolls sideways, and a keyboard must reach it.
    <div className="table-wrap" tabIndex={0} role="region" aria-label="Interest payments">
      <table className="table interest-payments">
        <caption>Interest paid in {interest.year}</caption>
        <thead>
          <tr>
            <th scope="col">Month</th>
            <th scope="col">Paid on</th>
            <th scope="col">Account</th>
            <th scope="col" className="interest-amount">
              Amount
            </th>
          </tr>
        </thead>
        <tbody>
          {interest.payments.map((payment) => (
            <tr key={`${payment.date}-${payment.account}`}>
              <th scope="row">{monthLabel(payment.date)}</th>
              <td>{payment.date}</td>
              <td>{ACCOUNT_LABELS[payment.account]}</td>
              <td className="interest-amount">{formatMoney(payment.amount)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function PdfButton({ year, userId }: { year: number; userId: string | undefined }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const download = async () => {
    setBusy(true);
    setError(null);
    try {
      await downloadInterestPdf(year, userId);
    } catch (caught) {
      setError(errorMessage(caught));
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <Button variant="secondary" loading={busy} onClick={() => void download()}>
        Download {year} interest statement (PDF)
      </Button>
      {error ? <Alert kind="error">{error}</Alert> : null}
    </>
  );
}

/**
 * A customer's interest (the customer's own, or a customer's for staff with `userId`): the savings rate and APY,
 * what has accrued this month, what was paid in the chosen year and each payment, and the year's statement as PDF.
 */
export function InterestOverview({ userId }: { userId?: string }) {
  const yearId = useId();
  const [year, setYear] = useState<number | undefined>(undefined);
  const [currentYear, setCurrentYear] = useState<number | undefined>(undefined);
  const interest = useInterest(year, userId);
  if (interest.data && year === undefined && currentYear === undefined) setCurrentYear(interest.data.year);

  if (interest.isPending) return <LoadingBlock label="Loading interest…" />;
  if (interest.isError) return <Alert kind="error">{errorMessage(interest.error)}</Alert>;
  const latest = currentYear ?? interest.data.year;
  const years = Array.from({ length: YEARS_SHOWN }, (_, index) => latest - index);
  return (
    <div className="interest-overview">
      <DetailList className="interest-figures" details={interestFigures(interest.data)} />
      <div className="interest-controls">
        <div className="field interest-year">
          <label htmlFor={yearId}>Year</label>
          <select id={yearId} value={interest.data.year} onChange={(event) => setYear(Number(event.target.value))}>
            {years.map((option) => (
              <option key={option} value={option}>
                {option}
              </option>
            ))}
          </select>
        </div>
        <PdfButton year={interest.data.year} userId={userId} />
      </div>
      <PaymentsTable interest={interest.data} />
    </div>
  );
}
