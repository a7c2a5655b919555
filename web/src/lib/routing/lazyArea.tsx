import { useRoutes, type RouteObject } from 'react-router';
import { lazyPage, type LazyPage } from './lazyPage';

/** An area (customer, admin, audit) whose route table loads with it; `routes()` loads and returns that table. */
export type LazyArea = LazyPage & { readonly routes: () => Promise<RouteObject[]> };

/**
 * The routes of an area, written with absolute paths under `prefix` (as the features list them), made relative to
 * the area's mount point `prefix/*`, where react-router matches descendant routes: `/admin/users` → `users`, `/admin`
 * → the index route.
 */
export function relativeTo(prefix: string, routes: readonly RouteObject[]): RouteObject[] {
  return routes.map((route): RouteObject => {
    const children = route.children ? relativeTo(prefix, route.children) : undefined;
    if (route.index || route.path === undefined || !route.path.startsWith('/')) return { ...route, children } as RouteObject;
    if (route.path === prefix) return children ? { ...route, path: undefined, children } : { ...route, path: undefined, index: true, children: undefined };
    if (!route.path.startsWith(`${prefix}/`)) throw new Error(`The route ${route.path} lies outside its area ${prefix}`);
    return { ...route, path: route.path.slice(prefix.length + 1), children } as RouteObject;
  });
}

/**
 * An area of the app mounted at `prefix/*` whose route table (and so the list of its screens) loads on first use:
 * `{ path: '/admin/*', Component: lazyArea('/admin', () => import('../features/admin/area')) }`, the module
 * exporting `routes` with absolute paths under the prefix. Adding a screen to an area then adds nothing to the
 * public pages' first load. main.tsx preloads the area and its first screen before rendering (loadInitialRoutes).
 */
export function lazyArea(prefix: string, load: () => Promise<{ routes: RouteObject[] }>): LazyArea {
  let loaded: RouteObject[] | undefined;
  const Area = lazyPage(async () => {
    const module = await load();
    loaded = module.routes;
    const mounted = relativeTo(prefix, module.routes);
    function AreaRoutes() {
      return useRoutes(mounted);
    }
    return { AreaRoutes };
  }, 'AreaRoutes');
  const routes = async () => {
    await Area.preload();
    return loaded!;
  };
  return Object.assign(Area, { routes });
}
