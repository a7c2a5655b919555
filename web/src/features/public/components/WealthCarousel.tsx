import { Link } from 'react-router';
import { Swiper, SwiperSlide } from 'swiper/react';
import { A11y, Autoplay, Keyboard, Pagination } from 'swiper/modules';
import 'swiper/css';
import 'swiper/css/pagination';
import { Icon, type IconName } from '../../../components/Icon';
import { wealthCarouselOptions } from './wealthCarouselOptions';

interface WealthProduct {
  readonly title: string;
  readonly icon: IconName;
  readonly text: string;
}

const products: readonly WealthProduct[] = [
  { title: 'Trade FX', icon: 'exchange', text: 'Buy and sell major currencies at competitive rates, with forward contracts to lock in a price.' },
  { title: 'Multi Currency a/c', icon: 'globe', text: 'Hold, send and receive up to ten currencies from one account, with no fee to switch between them.' },
  { title: 'Mutual Funds', icon: 'chart', text: 'Diversified funds chosen by our investment team, from cautious income to long-term growth.' },
  { title: 'Pension Scheme', icon: 'piggy', text: 'Plan for retirement with regular contributions, employer matching and tax-efficient growth.' },
];

/** The auto-playing wealth products carousel of the home page. */
export function WealthCarousel() {
  return (
    <section className="section wealth" aria-labelledby="wealth-title" id="wealth">
      <div className="container">
        <div className="section-header section-header-center">
          <span className="eyebrow">Wealth management</span>
          <h2 id="wealth-title">Make your money work harder</h2>
          <p className="lead">Investment and currency services for every goal, with an adviser who knows your plans.</p>
        </div>
        <Swiper
          {...wealthCarouselOptions}
          modules={[Autoplay, Pagination, Keyboard, A11y]}
          pagination={{ clickable: true }}
          keyboard={{ enabled: true, onlyInViewport: true }}
          a11y={{ containerRoleDescriptionMessage: 'carousel', itemRoleDescriptionMessage: 'slide' }}
          className="wealth-carousel"
          aria-label="Wealth products"
        >
          {products.map((product) => (
            <SwiperSlide key={product.title} className="wealth-slide">
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
            </SwiperSlide>
          ))}
        </Swiper>
      </div>
    </section>
  );
}
