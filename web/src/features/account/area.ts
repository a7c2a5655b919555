import type { RouteObject } from 'react-router';
import { notFoundRoute } from '../public/routes';
import { accountRoutes } from './routes';

/** The account area's route table as app/router.tsx mounts it (lazyArea): its screens, then Not Found. */
export const routes: RouteObject[] = [...accountRoutes, notFoundRoute];
