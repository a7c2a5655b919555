import { Outlet, ScrollRestoration } from 'react-router';
import { SiteFooter } from './SiteFooter';
import { SiteHeader } from './SiteHeader';
import './PublicLayout.css';
import '../public.css';

/** The shared layout of the public site and the auth pages: skip link, header, the page, footer. */
export function PublicLayout() {
  return (
    <div className="public-layout">
      <a href="#main" className="skip-link">
        Skip to main content
      </a>
      <SiteHeader />
      <main id="main" tabIndex={-1} className="public-main">
        <Outlet />
      </main>
      <SiteFooter />
      <ScrollRestoration />
    </div>
  );
}
