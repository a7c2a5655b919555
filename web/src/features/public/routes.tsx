import type { RouteObject } from 'react-router';

export const publicRoutes: RouteObject[] = [];

export const notFoundRoute: RouteObject = { path: '*', element: <h1>Not Found</h1> };
