import { Swiper, SwiperSlide } from 'swiper/react';
import { A11y, Autoplay, Keyboard, Pagination } from 'swiper/modules';
import { wealthCarouselOptions } from './wealthCarouselOptions';
import { WealthCard, wealthProducts } from './wealthProducts';

/** The live wealth carousel (Swiper, autoplay), loaded by WealthCarousel when it nears the viewport. */
export function WealthSwiper({ initialSlide }: { initialSlide: number }) {
  return (
    <Swiper
      {...wealthCarouselOptions}
      initialSlide={initialSlide}
      modules={[Autoplay, Pagination, Keyboard, A11y]}
      pagination={{ clickable: true }}
      keyboard={{ enabled: true, onlyInViewport: true }}
      a11y={{ containerRoleDescriptionMessage: 'carousel', itemRoleDescriptionMessage: 'slide' }}
      className="wealth-carousel"
      aria-label="Wealth products"
    >
      {wealthProducts.map((product) => (
        <SwiperSlide key={product.title} className="wealth-slide">
          <WealthCard product={product} />
        </SwiperSlide>
      ))}
    </Swiper>
  );
}
