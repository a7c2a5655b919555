import { ButtonLink } from '../../../components/ButtonLink';
import { Icon, type IconName } from '../../../components/Icon';
import { PageTitle } from '../../../components/PageTitle';
import { formatMoney, formatWholeDollars } from '../../../components/money';
import { CtaBand } from '../components/CtaBand';
import { PageBanner } from '../components/PageBanner';
import { SavingsArt } from '../components/illustrations/SavingsArt';

const benefits: readonly { readonly title: string; readonly icon: IconName; readonly text: string }[] = [
  { title: 'Up to 7% per year', icon: 'percent', text: 'Earn up to 7% interest per year, paid monthly, on our top balance tier.' },
  { title: `Insured up to ${formatWholeDollars(250_000)}`, icon: 'shield', text: `Your deposits are insured up to ${formatWholeDollars(250_000)} per depositor.` },
  { title: 'No monthly fees', icon: 'wallet', text: 'No minimum opening deposit and no fee to keep your account open.' },
  { title: 'Money when you need it', icon: 'exchange', text: 'Move money to your checking account instantly, at any hour.' },
];

const tiers: readonly { readonly from: number; readonly to?: number; readonly rate: string }[] = [
  { from: 0, to: 9_999.99, rate: '3.50%' },
  { from: 10_000, to: 49_999.99, rate: '5.00%' },
  { from: 50_000, rate: '7.00%' },
];

export function SavingsAccountPage() {
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
        <p>Put your money to work with interest of up to 7% per year, no monthly fees and round-the-clock access online.</p>
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
            <h2 id="rates-title">The more you save, the more you earn</h2>
            <p className="lead">Your whole balance earns the rate of the tier it falls in. Rates are annual and may change.</p>
          </div>
          <div className="table-wrap">
            <table className="table">
              <caption>Savings interest by balance</caption>
              <thead>
                <tr>
                  <th scope="col">Balance</th>
                  <th scope="col">Interest per year</th>
                </tr>
              </thead>
              <tbody>
                {tiers.map((tier) => (
                  <tr key={tier.from}>
                    <th scope="row">{tier.to === undefined ? `${formatMoney(tier.from)} and above` : `${formatMoney(tier.from)} to ${formatMoney(tier.to)}`}</th>
                    <td>{tier.rate}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </div>
      </section>

      <CtaBand title="Start saving today" actions={<ButtonLink to="/signup" variant="accent" size="large">Open an Account</ButtonLink>}>
        It takes about five minutes. All you need is an e-mail address and a photo ID.
      </CtaBand>
    </>
  );
}
