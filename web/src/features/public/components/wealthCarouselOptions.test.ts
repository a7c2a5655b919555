import { describe, expect, it } from 'vitest';
import { WEALTH_AUTOPLAY_DELAY_MS, wealthCarouselOptions } from './wealthCarouselOptions';

describe('wealthCarouselOptions', () => {
  it('autoplays every 2500 ms and keeps going after interaction', () => {
    expect(WEALTH_AUTOPLAY_DELAY_MS).toBe(2500);
    expect(wealthCarouselOptions.autoplay).toEqual({ delay: 2500, disableOnInteraction: false });
  });

  it('shows 1 slide below 576px, 2 from 576px and 3 from 992px of window width', () => {
    expect(wealthCarouselOptions.slidesPerView).toBe(1);
    expect(wealthCarouselOptions.breakpointsBase).toBe('window');
    expect(wealthCarouselOptions.breakpoints).toEqual({ 576: { slidesPerView: 2 }, 992: { slidesPerView: 3 } });
  });
});
