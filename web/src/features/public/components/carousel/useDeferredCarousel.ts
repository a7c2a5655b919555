import { useCallback, useEffect, useRef, useState, type ComponentType, type RefObject } from 'react';

export interface DeferredCarousel<Props, T extends HTMLElement> {
  /** The live carousel once its code has arrived, else null (show the static slides). */
  readonly Live: ComponentType<Props> | null;
  /** Starts loading the live carousel now. */
  readonly wake: () => void;
  /** Attach to the carousel's section: a pointer, a touch or keyboard focus inside it starts the load. */
  readonly ref: RefObject<T | null>;
}

/**
 * Import on interaction for the home page's carousels, so that Swiper (about 30 kB compressed) is not part of the
 * page's first load. The carousel shows its slides as static markup with Swiper's own classes (the same layout),
 * and `load` runs when a person points at, touches or tabs into the carousel, or — with `whenNear` — when it comes
 * within a quarter of a screen of the viewport (the wealth carousel autoplays, so it starts before it is seen). The
 * static slides stay until the code has arrived, so no tap is lost to a half-loaded carousel.
 */
export function useDeferredCarousel<Props, T extends HTMLElement = HTMLElement>(
  load: () => Promise<ComponentType<Props>>,
  { whenNear = false }: { whenNear?: boolean } = {},
): DeferredCarousel<Props, T> {
  const [Live, setLive] = useState<ComponentType<Props> | null>(null);
  const requested = useRef(false);
  const ref = useRef<T>(null);
  const loadRef = useRef(load);

  const wake = useCallback(() => {
    if (requested.current) return;
    requested.current = true;
    loadRef.current().then(
      (component) => setLive(() => component),
      (error: unknown) => {
        requested.current = false;
        console.warn('The carousel could not load; its first slides stay shown.', error);
      },
    );
  }, []);

  useEffect(() => {
    const element = ref.current;
    if (!element) return;
    const events = ['pointerenter', 'pointerdown', 'touchstart', 'focusin', 'keydown'] as const;
    for (const name of events) element.addEventListener(name, wake, { passive: true });
    let observer: IntersectionObserver | undefined;
    if (whenNear && typeof IntersectionObserver === 'function') {
      observer = new IntersectionObserver((entries) => {
        if (entries.some((entry) => entry.isIntersecting)) wake();
      }, { rootMargin: '25% 0px' });
      observer.observe(element);
    }
    return () => {
      for (const name of events) element.removeEventListener(name, wake);
      observer?.disconnect();
    };
  }, [wake, whenNear]);

  return { Live, wake, ref };
}
