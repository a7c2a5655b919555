import { ButtonLink } from '../../../components/ButtonLink';
import { Icon, type IconName } from '../../../components/Icon';
import { PageTitle } from '../../../components/PageTitle';
import { formatWholeDollars } from '../../../components/money';
import { CtaBand } from '../components/CtaBand';
import { PageBanner } from '../components/PageBanner';
import { SavingsArt } from '../components/illustrations/SavingsArt';
import { formatPercent, rateInForce, scheduledRates } from '../../interest/interestFormat';
import { usePublicRates, type PublicRates } from '../../interest/publicRates';

const benefits: readonly { readonly title: string; readonly icon: IconName; readonly text: string }[] = [
  { title: 'Interest every month', icon: 'percent', text: 'Interest accrues every day on your balance and is paid into your account on the last day of each month.' },
  { title: `Insured up to ${formatWholeDollars(250_000)}`, icon: 'shield', text: `Your deposits are insured up to ${formatWholeDollars(250_000)} per depositor.` },
  { title: 'No monthly fees', icon: 'wallet', text: 'No minimum opening deposit and no fee to keep your account open.' },
  { title: 'Money when you need it', icon: 'exchange', text: 'Move money to your checking account instantly, at any hour.' },
];

/** The savings rate in force and its APY, from the bank (GET /rates): never a figure written into the page. */
function SavingsRate({ rates }: { rates: PublicRates }) {
  if (rates.status === 'loading') return <p className="lead" aria-busy="true">Loading today&apos;s rate…</p>;
  const savings = rates.status === 'ready' ? rateInForce(rates.rates, 'savings') : undefined;
  if (!savings) return <p className="lead">Today&apos;s rate could not be loaded. Please try again later, or contact us.</p>;
  const next = rates.status === 'ready' ? scheduledRates(rates.rates, 'savings')[0] : undefined;
  return (
    <>
      <div className="table-wrap">
        <table className="table">
          <caption>Savings interest on any balance</caption>
          <thead>
            <tr>
              <th scope="col">Rate per year</th>
              <th scope="col">APY</th>
            </tr>
          </thead>
          <tbody>
            <tr>
              <td data-testid="savings-rate">{formatPercent(savings.annualRate)}</td>
              <td data-testid="savings-apy">{formatPercent(savings.apy)}</td>
            </tr>
          </tbody>
        </table>
      </div>
      {next ? (
        <p>
          From {next.effectiveFrom} the rate will be {formatPercent(next.annualRate)} a year (APY {formatPercent(next.apy)}).
        </p>
      ) : null}
    </>
  );
}

export function SavingsAccountPage() {
  const rates = usePublicRates();
  const savings = rates.status === 'ready' ? rateInForce(rates.rates, 'savings') : undefined;
  return (
    <>
      <PageTitle>Savings Account</PageTitle>
      <PageBanner
        eyebrow="Savings Account"
        title="Savings that grow with every deposit"
        art={<SavingsArt />}
        actions={
          <ButtonLink to="/signup" variant="accent" size="large">
            Open an Account
          </ButtonLink>
        }
      >
        <p>
          Put your money to work
          {savings ? ` at ${formatPercent(savings.annualRate)} a year (${formatPercent(savings.apy)} APY)` : ' with interest paid every month'}, no monthly fees and
          round-the-clock access online.
        </p>
      </PageBanner>

      <section className="section" aria-labelledby="benefits-title">
        <div className="container">
          <div className="section-header">
            <span className="eyebrow">Benefits</span>
            <h2 id="benefits-title">Why save with us</h2>
          </div>
          <div className="grid benefit-grid">
            {benefits.map((benefit) => (
              <article key={benefit.title} className="card">
                <span className="icon-badge">
                  <Icon name={benefit.icon} size={26} />
                </span>
                <h3>{benefit.title}</h3>
                <p>{benefit.text}</p>
              </article>
            ))}
          </div>
        </div>
      </section>

      <section className="section section-muted" aria-labelledby="rates-title">
        <div className="container narrow">
          <div className="section-header">
            <span className="eyebrow">Interest rates</span>
            <h2 id="rates-title">One rate for every balance</h2>
            <p className="lead">Your whole balance earns the same rate, accrued daily and paid monthly. APY is the annual percentage yield with monthly compounding. Rates may change.</p>
          </div>
          <SavingsRate rates={rates} />
        </div>
      </section>

      <CtaBand title="Start saving today" actions={<ButtonLink to="/signup" variant="accent" size="large">Open an Account</ButtonLink>}>
        It takes about five minutes. All you need is an e-mail address and a photo ID.
      </CtaBand>
    </>
  );
}
