import { Link } from 'react-router';
import { Icon, type IconName } from '../../../components/Icon';
import { Tabs } from '../../../components/Tabs';

interface Offer {
  readonly title: 'Savings & CDs' | 'Online & Mobile' | 'Consumer Loans';
  readonly icon: IconName;
  readonly text: string;
  readonly to: string;
}

const individuals: readonly Offer[] = [
  { title: 'Savings & CDs', icon: 'piggy', text: 'Flexible savings and certificates of deposit with terms from 3 months to 5 years.', to: '/account/savings' },
  { title: 'Online & Mobile', icon: 'phone', text: 'Check balances, move money and pay people from your phone, day or night.', to: '/signup' },
  { title: 'Consumer Loans', icon: 'car', text: 'Personal and vehicle loans with fixed monthly payments and no early repayment fees.', to: '/loan/auto-loan' },
];

const companies: readonly Offer[] = [
  { title: 'Savings & CDs', icon: 'briefcase', text: 'Put idle cash to work with business savings and CDs that keep your funds within reach.', to: '/account/savings' },
  { title: 'Online & Mobile', icon: 'globe', text: 'Payroll, bulk payments and multi-user access with approvals for your finance team.', to: '/signup' },
  { title: 'Consumer Loans', icon: 'chart', text: 'Working capital, equipment and fleet finance, sized to the way your company grows.', to: '/contact' },
];

function OfferGrid({ offers }: { offers: readonly Offer[] }) {
  return (
    <div className="grid grid-3">
      {offers.map((offer) => (
        <article key={offer.title} className="offer">
          <span className="icon-badge">
            <Icon name={offer.icon} size={26} />
          </span>
          <h3>{offer.title}</h3>
          <p>{offer.text}</p>
          <Link to={offer.to} className="text-link">
            Learn more<span className="visually-hidden"> about {offer.title}</span> <Icon name="arrowRight" size={16} />
          </Link>
        </article>
      ))}
    </div>
  );
}

/** The Individuals / Companies tab block of the home page. */
export function AudienceTabs() {
  return (
    <section className="section section-muted" aria-labelledby="audience-title">
      <div className="container">
        <div className="section-header">
          <span className="eyebrow">Banking for you</span>
          <h2 id="audience-title">For individuals and companies</h2>
        </div>
        <Tabs
          label="Customer type"
          tabs={[
            { id: 'individuals', label: 'Individuals', content: <OfferGrid offers={individuals} /> },
            { id: 'companies', label: 'Companies', content: <OfferGrid offers={companies} /> },
          ]}
        />
      </div>
    </section>
  );
}
