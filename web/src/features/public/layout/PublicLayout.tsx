import { Suspense } from 'react';
import { Outlet } from 'react-router';
import { useScrollOnNavigate } from '../../../lib/routing/useScrollOnNavigate';
import { PageLoading } from './PageLoading';
import { SiteFooter } from './SiteFooter';
import { SiteHeader } from './SiteHeader';
import { usePageMeta } from './usePageMeta';
import './PublicLayout.css';
import '../public.css';

/** The shared layout of the public site and the auth pages: skip link, header, the page, footer. */
export function PublicLayout() {
  usePageMeta();
  useScrollOnNavigate();
  return (
    <div className="public-layout">
      <a href="#main" className="skip-link">
        Skip to main content
      </a>
      <SiteHeader />
      <main id="main" tabIndex={-1} className="public-main">
        <Suspense fallback={<PageLoading />}>
          <Outlet />
        </Suspense>
      </main>
      <SiteFooter />
    </div>
  );
}
