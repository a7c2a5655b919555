import { Swiper, SwiperSlide } from 'swiper/react';
import { A11y, Keyboard, Navigation, Pagination } from 'swiper/modules';
import { HeroSlideContent, heroCarouselOptions, heroSlides } from './heroSlides';

/** The live hero carousel (Swiper), loaded on first interaction by HeroCarousel. */
export function HeroSwiper({ initialSlide }: { initialSlide: number }) {
  return (
    <Swiper
      {...heroCarouselOptions}
      initialSlide={initialSlide}
      modules={[Navigation, Pagination, Keyboard, A11y]}
      navigation
      pagination={{ clickable: true }}
      keyboard={{ enabled: true, onlyInViewport: true }}
      a11y={{ containerRoleDescriptionMessage: 'carousel', itemRoleDescriptionMessage: 'slide' }}
      className="hero-carousel"
    >
      {heroSlides.map((slide) => (
        <SwiperSlide key={slide.title}>
          <HeroSlideContent slide={slide} />
        </SwiperSlide>
      ))}
    </Swiper>
  );
}
