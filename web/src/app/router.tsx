import { createBrowserRouter, type RouteObject } from 'react-router';
import { publicRoutes, notFoundRoute } from '../features/public/routes';
import { authRoutes } from '../features/auth/routes';
import { accountRoutes } from '../features/account/routes';
import { adminRoutes } from '../features/admin/routes';
import { auditRoutes } from '../features/audit/routes';

/** Every screen of the app; each feature owns its own route list. */
export const routes: RouteObject[] = [...publicRoutes, ...authRoutes, ...accountRoutes, ...adminRoutes, ...auditRoutes, notFoundRoute];

export function createRouter() {
  return createBrowserRouter(routes);
}
