import type { RouteObject } from 'react-router';

export const accountRoutes: RouteObject[] = [];
