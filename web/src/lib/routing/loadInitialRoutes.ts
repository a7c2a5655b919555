import { matchRoutes, type RouteObject } from 'react-router';
import type { LazyArea } from './lazyArea';
import type { LazyPage } from './lazyPage';

function isLazyPage(component: unknown): component is LazyPage {
  return typeof component === 'function' && typeof (component as Partial<LazyPage>).preload === 'function';
}

function isLazyArea(component: LazyPage): component is LazyArea {
  return typeof (component as Partial<LazyArea>).routes === 'function';
}

/**
 * Loads the screens (`lazyPage`) of the routes matching `location`, within an area (`lazyArea`) the area's table and
 * its matching screens too, so the app's first render shows the first screen
 * whole, with no loading state in between. The build preloads that screen's chunks from the page's HTML
 * (web/build/publicPagesPlugin.ts), so this mostly waits for downloads already under way. A failed load is left to
 * the render, which tries again and shows the error screen (RouteErrorBoundary).
 */
export async function loadInitialRoutes(routes: RouteObject[], location: string): Promise<void> {
  const matches = matchRoutes(routes, location) ?? [];
  await Promise.all(
    matches.map(async ({ route }) => {
      if (!isLazyPage(route.Component)) return;
      try {
        if (isLazyArea(route.Component)) await loadInitialRoutes(await route.Component.routes(), location);
        else await route.Component.preload();
      } catch (error) {
        console.warn(`Could not load the screen for ${location} before start-up; it is tried again.`, error);
      }
    }),
  );
}
