import { useEffect, useRef } from 'react';
import { useLocation } from 'react-router';

/** The site's origin, as the build set it (vite.config.ts checks VITE_SITE_URL). */
const siteUrl = import.meta.env.VITE_SITE_URL as string;

function setMeta(selector: string, attribute: 'name' | 'property', key: string, content: string | null): void {
  const [first, ...extra] = document.head.querySelectorAll<HTMLMetaElement>(selector);
  extra.forEach((duplicate) => duplicate.remove());
  let element = first;
  if (content === null) {
    element?.remove();
    return;
  }
  if (!element) {
    element = document.createElement('meta');
    element.setAttribute(attribute, key);
    document.head.append(element);
  }
  element.content = content;
}

function setCanonical(href: string | null): void {
  const [first, ...extra] = document.head.querySelectorAll<HTMLLinkElement>('link[rel="canonical"]');
  extra.forEach((duplicate) => duplicate.remove());
  let link = first;
  if (href === null) {
    link?.remove();
    return;
  }
  if (!link) {
    link = document.createElement('link');
    link.rel = 'canonical';
    document.head.append(link);
  }
  link.href = href;
}

/**
 * Keeps the head's description, canonical link and Open Graph tags those of the page shown after client-side
 * navigation. The first page's HTML already carries its own (written by the build), so nothing is done for it and the
 * list of pages loads only on the first navigation, out of the app's first script. A path that is not a public page
 * (Not Found) gets no canonical link. The title is PageTitle's job.
 */
export function usePageMeta(): void {
  const { pathname } = useLocation();
  const firstPath = useRef(pathname);
  useEffect(() => {
    if (pathname === firstPath.current) return;
    firstPath.current = '';
    let current = true;
    void import('../publicPages').then(({ documentTitle, publicPageAt }) => {
      if (!current) return;
      const page = publicPageAt(pathname);
      const url = page ? new URL(page.path, siteUrl).href : null;
      setCanonical(url);
      setMeta('meta[property="og:url"]', 'property', 'og:url', url);
      if (!page) return;
      setMeta('meta[name="description"]', 'name', 'description', page.description);
      setMeta('meta[property="og:title"]', 'property', 'og:title', documentTitle(page.title));
      setMeta('meta[property="og:description"]', 'property', 'og:description', page.description);
    });
    return () => {
      current = false;
    };
  }, [pathname]);
}
