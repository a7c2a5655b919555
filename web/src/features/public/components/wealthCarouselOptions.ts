import type { SwiperOptions } from 'swiper/types';

/** Wealth carousel autoplay delay (spec, section 9). */
export const WEALTH_AUTOPLAY_DELAY_MS = 2500;

/**
 * The wealth carousel's Swiper settings: autoplay every 2500 ms that keeps going after a person interacts with it;
 * 1 slide per view below 576px, 2 from 576px to 991px, 3 from 992px (breakpoints are window widths).
 */
export const wealthCarouselOptions = {
  slidesPerView: 1,
  spaceBetween: 24,
  rewind: true,
  autoplay: { delay: WEALTH_AUTOPLAY_DELAY_MS, disableOnInteraction: false },
  breakpointsBase: 'window',
  breakpoints: {
    576: { slidesPerView: 2 },
    992: { slidesPerView: 3 },
  },
} satisfies SwiperOptions;
