import { vi } from 'vitest';

/**
 * jsdom has no window.matchMedia; Swiper's breakpoints need it. Stubs it so that every `(min-width: Npx)` query
 * matches when N ≤ `width` (default 1280). Undo with vi.unstubAllGlobals().
 */
export function stubMatchMedia(width = 1280): void {
  vi.stubGlobal(
    'matchMedia',
    (query: string): MediaQueryList => {
      const min = /min-width:\s*(\d+)px/.exec(query);
      const matches = min ? width >= Number(min[1]) : false;
      return {
        matches,
        media: query,
        onchange: null,
        addListener: () => undefined,
        removeListener: () => undefined,
        addEventListener: () => undefined,
        removeEventListener: () => undefined,
        dispatchEvent: () => false,
      };
    },
  );
}
