import { useLayoutEffect } from 'react';
import { useLocation, useNavigationType } from 'react-router';

/**
 * Scrolling as a visitor expects between pages: a link to `/page#section` scrolls the section into view, any other
 * followed link starts the new page at the top; Back and Forward leave it to the browser, which restores where
 * the visitor was.
 */
export function useScrollOnNavigate(): void {
  const { pathname, hash, key } = useLocation();
  const navigationType = useNavigationType();
  useLayoutEffect(() => {
    if (navigationType === 'POP') return;
    const target = hash ? document.getElementById(decodeURIComponent(hash.slice(1))) : null;
    if (target) target.scrollIntoView();
    else window.scrollTo(0, 0);
  }, [pathname, hash, key, navigationType]);
}
