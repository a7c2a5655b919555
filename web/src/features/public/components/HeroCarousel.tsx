import { useState } from 'react';
import 'swiper/css';
import 'swiper/css/navigation';
import 'swiper/css/pagination';
import { StaticArrows, StaticBullets } from './carousel/StaticArrows';
import { useDeferredCarousel } from './carousel/useDeferredCarousel';
import { HeroSlideContent, heroSlides } from './heroSlides';

const loadHeroSwiper = () => import('./HeroSwiper').then((module) => module.HeroSwiper);

/**
 * The home page's three-slide hero; every slide leads to sign up. The first slide paints with the page, laid out as
 * Swiper lays it out; Swiper itself loads when a person reaches for the carousel (useDeferredCarousel) and starts on
 * the slide they asked for.
 */
export function HeroCarousel() {
  const { Live, wake, ref } = useDeferredCarousel(loadHeroSwiper);
  const [start, setStart] = useState(0);
  const go = (slide: number) => {
    setStart(slide);
    wake();
  };
  return (
    <section className="hero" aria-label="Featured offers" ref={ref}>
      {Live ? (
        <Live initialSlide={start} />
      ) : (
        <div className="swiper hero-carousel swiper-horizontal">
          <div className="swiper-wrapper">
            {heroSlides.map((slide, index) => (
              <div key={slide.title} className={`swiper-slide${index === 0 ? ' swiper-slide-active' : ''}`} inert={index > 0}>
                <HeroSlideContent slide={slide} />
              </div>
            ))}
          </div>
          <StaticArrows current={0} count={heroSlides.length} onGo={go} />
          <StaticBullets current={0} count={heroSlides.length} onGo={go} />
        </div>
      )}
    </section>
  );
}
