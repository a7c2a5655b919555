import type { RouteObject } from 'react-router';
import { notFoundRoute } from '../public/routes';
import { auditRoutes } from './routes';

/** The audit area's route table as app/router.tsx mounts it (lazyArea): its screens, then Not Found. */
export const routes: RouteObject[] = [...auditRoutes, notFoundRoute];
