import { Link } from 'react-router';
import { Icon, type IconName } from '../../../components/Icon';

interface Feature {
  readonly title: string;
  readonly icon: IconName;
  readonly text: string;
  readonly to: string;
  readonly linkLabel: string;
}

const features: readonly Feature[] = [
  {
    title: 'Accounts',
    icon: 'wallet',
    text: 'Savings that earn up to 5% interest per year, and checking with free transfers and a debit card on day one.',
    to: '/account/savings',
    linkLabel: 'Compare accounts',
  },
  {
    title: 'Home Loans',
    icon: 'home',
    text: 'Buy, build or refinance with competitive fixed rates and terms from 10 to 30 years.',
    to: '/loan/home-loan',
    linkLabel: 'Explore home loans',
  },
  {
    title: 'Credit Cards',
    icon: 'card',
    text: 'Cash back, rewards, travel and business cards, each with fraud protection and contactless payments.',
    to: '/cards/credit-card',
    linkLabel: 'Find your card',
  },
];

/** The home page's three headline services. Its id is the target of the "All Accounts" menu entry. */
export function FeaturesBlock() {
  return (
    <section className="section" id="accounts" aria-labelledby="features-title">
      <div className="container">
        <div className="section-header section-header-center">
          <span className="eyebrow">Our services</span>
          <h2 id="features-title">Everything you need from your bank</h2>
          <p className="lead">Open an account, finance a home or choose a card — all online, with people to help when you need them.</p>
        </div>
        <div className="grid grid-3">
          {features.map((feature) => (
            <article key={feature.title} className="card feature-card">
              <span className="icon-badge">
                <Icon name={feature.icon} size={28} />
              </span>
              <h3>{feature.title}</h3>
              <p>{feature.text}</p>
              <Link to={feature.to} className="text-link">
                {feature.linkLabel} <Icon name="arrowRight" size={16} />
              </Link>
            </article>
          ))}
        </div>
      </div>
    </section>
  );
}
