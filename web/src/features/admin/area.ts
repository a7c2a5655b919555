import type { RouteObject } from 'react-router';
import { notFoundRoute } from '../public/routes';
import { adminRoutes } from './routes';

/** The admin area's route table as app/router.tsx mounts it (lazyArea): its screens, then Not Found. */
export const routes: RouteObject[] = [...adminRoutes, notFoundRoute];
