import { Link } from 'react-router';
import { Icon, type IconName } from '../../../components/Icon';

interface WealthProduct {
  readonly title: string;
  readonly icon: IconName;
  readonly text: string;
}

export const wealthProducts: readonly WealthProduct[] = [
  { title: 'Trade FX', icon: 'exchange', text: 'Buy and sell major currencies at competitive rates, with forward contracts to lock in a price.' },
  { title: 'Multi Currency a/c', icon: 'globe', text: 'Hold, send and receive up to ten currencies from one account, with no fee to switch between them.' },
  { title: 'Mutual Funds', icon: 'chart', text: 'Diversified funds chosen by our investment team, from cautious income to long-term growth.' },
  { title: 'Pension Scheme', icon: 'piggy', text: 'Plan for retirement with regular contributions, employer matching and tax-efficient growth.' },
];

/** One wealth product's card (the same in the static and the live carousel). */
export function WealthCard({ product }: { product: WealthProduct }) {
  return (
    <article className="card wealth-card">
      <span className="icon-badge">
        <Icon name={product.icon} size={28} />
      </span>
      <h3>{product.title}</h3>
      <p>{product.text}</p>
      <Link to="/contact" className="text-link">
        Talk to an adviser <Icon name="arrowRight" size={16} />
      </Link>
    </article>
  );
}
