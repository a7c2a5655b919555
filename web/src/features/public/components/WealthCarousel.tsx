import { useState } from 'react';
import 'swiper/css';
import 'swiper/css/pagination';
import { StaticBullets } from './carousel/StaticArrows';
import { useDeferredCarousel } from './carousel/useDeferredCarousel';
import { WealthCard, wealthProducts } from './wealthProducts';

const loadWealthSwiper = () => import('./WealthSwiper').then((module) => module.WealthSwiper);

/**
 * The auto-playing wealth products carousel of the home page. Until Swiper has loaded (when the carousel comes
 * near the viewport, or a person reaches for it) the cards show as Swiper lays them out: 1, 2 or 3 to a view.
 */
export function WealthCarousel() {
  const { Live, wake, ref } = useDeferredCarousel(loadWealthSwiper, { whenNear: true });
  const [start, setStart] = useState(0);
  const go = (slide: number) => {
    setStart(slide);
    wake();
  };
  return (
    <section className="section wealth" aria-labelledby="wealth-title" id="wealth" ref={ref}>
      <div className="container">
        <div className="section-header section-header-center">
          <span className="eyebrow">Wealth management</span>
          <h2 id="wealth-title">Make your money work harder</h2>
          <p className="lead">Investment and currency services for every goal, with an adviser who knows your plans.</p>
        </div>
        {Live ? (
          <Live initialSlide={start} />
        ) : (
          <div className="swiper wealth-carousel wealth-carousel-static swiper-horizontal" aria-label="Wealth products">
            <div className="swiper-wrapper">
              {wealthProducts.map((product) => (
                <div key={product.title} className="swiper-slide wealth-slide">
                  <WealthCard product={product} />
                </div>
              ))}
            </div>
            <StaticBullets current={0} count={wealthProducts.length} onGo={go} />
          </div>
        )}
      </div>
    </section>
  );
}
