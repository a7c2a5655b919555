import type { RouteObject } from 'react-router';

export const auditRoutes: RouteObject[] = [];
