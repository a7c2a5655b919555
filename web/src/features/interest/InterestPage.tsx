import { PageTitle } from '../account/components/PageTitle';
import { InterestOverview } from './InterestOverview';

/** /account/interest: the customer's savings rate and APY, this month's accrual, each year's payments and statement. */
export function InterestPage() {
  return (
    <div className="portal-page">
      <PageTitle lead="Interest accrues every day on your end-of-day balance and is paid on the last day of each month.">Interest</PageTitle>
      <section className="portal-card" aria-label="Your interest">
        <InterestOverview />
      </section>
    </div>
  );
}
