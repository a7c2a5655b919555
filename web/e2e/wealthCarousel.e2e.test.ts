import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectNoConsoleErrors, launchBrowser, newPage, viewports, type E2eBrowser } from './harness/browser';

/** Slides of the wealth carousel lying wholly inside its visible area, measured while no transition is running. */
async function fullyVisibleSlides(page: Page): Promise<number> {
  await page.waitForFunction(() => {
    const element = document.querySelector('.wealth-carousel') as (HTMLElement & { swiper?: { animating: boolean } }) | null;
    return element?.swiper !== undefined && !element.swiper.animating;
  });
  return page.evaluate(() => {
    const carousel = document.querySelector('.wealth-carousel') as HTMLElement;
    const style = getComputedStyle(carousel);
    const area = carousel.getBoundingClientRect();
    const left = area.left + parseFloat(style.paddingLeft);
    const right = area.right - parseFloat(style.paddingRight);
    return [...carousel.querySelectorAll('.swiper-slide')].filter((slide) => {
      const rect = slide.getBoundingClientRect();
      return rect.width > 0 && rect.left >= left - 1 && rect.right <= right + 1;
    }).length;
  });
}

describe('wealth carousel', () => {
  let e2e: E2eBrowser;
  beforeAll(async () => {
    e2e = await launchBrowser();
  });
  afterAll(async () => {
    await e2e?.close();
  });

  it.each([
    { width: viewports.desktop.width, expected: 3 },
    { width: 992, expected: 3 },
    { width: 991, expected: 2 },
    { width: viewports.tablet.width, expected: 2 },
    { width: 576, expected: 2 },
    { width: 575, expected: 1 },
    { width: viewports.mobile.width, expected: 1 },
  ])('at $width px wide, $expected slide(s) are fully visible', async ({ width, expected }) => {
    const tracked = await newPage(e2e, { viewport: { width, height: 800 } });
    const { page } = tracked;
    await page.goto('/');
    await page.locator('.wealth-carousel .swiper-slide').first().waitFor();
    await page.locator('.wealth-carousel').scrollIntoViewIfNeeded();
    expect(await fullyVisibleSlides(page)).toBe(expected);
    expect(await page.locator('.wealth-carousel .swiper-slide').count()).toBe(4);
    expectNoConsoleErrors(tracked);
    await tracked.context.close();
  });

  it('lists Trade FX, Multi Currency a/c, Mutual Funds and Pension Scheme and autoplays every 2500 ms, also after interaction', async () => {
    const tracked = await newPage(e2e, { viewport: viewports.mobile });
    const { page } = tracked;
    await page.goto('/');
    await page.locator('.wealth-carousel .swiper-slide h3').first().waitFor();
    const titles = await page.locator('.wealth-carousel .swiper-slide h3').allTextContents();
    expect(titles).toEqual(['Trade FX', 'Multi Currency a/c', 'Mutual Funds', 'Pension Scheme']);
    // Swiper loads when the carousel comes within a screen of the viewport (useDeferredCarousel).
    await page.locator('.wealth-carousel').scrollIntoViewIfNeeded();
    await page.waitForFunction(() => (document.querySelector('.wealth-carousel') as (HTMLElement & { swiper?: unknown }) | null)?.swiper !== undefined);
    const params = await page.evaluate(() => {
      const element = document.querySelector('.wealth-carousel') as HTMLElement & { swiper: { params: { autoplay: { delay: number; disableOnInteraction: boolean } } } };
      return element.swiper.params.autoplay;
    });
    expect(params.delay).toBe(2500);
    expect(params.disableOnInteraction).toBe(false);

    const activeIndex = () =>
      page.evaluate(() => (document.querySelector('.wealth-carousel') as HTMLElement & { swiper: { activeIndex: number } }).swiper.activeIndex);
    const start = await activeIndex();
    await page.waitForFunction((from) => (document.querySelector('.wealth-carousel') as HTMLElement & { swiper: { activeIndex: number } }).swiper.activeIndex !== from, start, { timeout: 4000 });

    // A click on a pagination bullet is an interaction; autoplay carries on afterwards.
    await page.locator('.wealth-carousel .swiper-pagination-bullet').nth(0).click();
    const afterClick = await activeIndex();
    await page.waitForFunction((from) => (document.querySelector('.wealth-carousel') as HTMLElement & { swiper: { activeIndex: number } }).swiper.activeIndex !== from, afterClick, { timeout: 4000 });
    expectNoConsoleErrors(tracked);
    await tracked.context.close();
  });
});
