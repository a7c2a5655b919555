import { Suspense } from 'react';
import { useLocation, useRoutes, type RouteObject } from 'react-router';
import { LoadingBlock } from '../components/Spinner';
import { publicRoutes, notFoundRoute } from '../features/public/routes';
import { authRoutes } from '../features/auth/routes';
import { lazyArea } from '../lib/routing/lazyArea';
import { lazyPage } from '../lib/routing/lazyPage';
import { RouteErrorBoundary } from '../lib/routing/RouteErrorBoundary';

/**
 * Every screen of the app; each feature owns its own route list, and every screen loads on first use (docs/web.md).
 * The customer, admin and audit areas load their route tables with them (lazyArea: `features/<area>/area.ts`), so
 * their screens add nothing to the public pages' first load. The screens that call the API sit under QueryArea,
 * which brings the query cache; the public pages do not.
 */
export const routes: RouteObject[] = [
  ...publicRoutes,
  {
    Component: lazyPage(() => import('./QueryArea'), 'QueryArea'),
    children: [
      ...authRoutes,
      { path: '/account/*', Component: lazyArea('/account', () => import('../features/account/area')) },
      { path: '/admin/*', Component: lazyArea('/admin', () => import('../features/admin/area')) },
      { path: '/audit/*', Component: lazyArea('/audit', () => import('../features/audit/area')) },
    ],
  },
  notFoundRoute,
];

/**
 * The route table rendered inside <BrowserRouter> (react-router's declarative mode: the app uses no loaders or
 * actions, and the data router would add 15 kB to every page's first load).
 */
export function AppRoutes() {
  const { pathname } = useLocation();
  return (
    <RouteErrorBoundary resetKey={pathname}>
      <Suspense fallback={<LoadingBlock />}>{useRoutes(routes)}</Suspense>
    </RouteErrorBoundary>
  );
}
