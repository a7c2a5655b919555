import type { ReactElement } from 'react';
import { render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider, useLocation, type RouteObject } from 'react-router';
import { SessionProvider } from '../../lib/session/SessionContext';

/** Shows where the router went (path and state), for assertions after a navigation. */
function LocationProbe() {
  const location = useLocation();
  return (
    <div data-testid="location" data-state={JSON.stringify(location.state ?? null)}>
      {location.pathname}
      {location.hash}
    </div>
  );
}

export interface RenderWithRouterOptions {
  /** The starting path (and router state), default '/'. */
  path?: string;
  state?: unknown;
  /** Where `element` is mounted; default: the starting path without its query or hash. */
  routePath?: string;
}

/**
 * Renders a screen inside a memory router and the SessionProvider (which reads the session from localStorage,
 * so seed localStorage first for a signed-in test). Every other path renders a probe: `currentPath()` tells
 * where a navigation went.
 */
export function renderWithRouter(element: ReactElement, options: RenderWithRouterOptions = {}) {
  const path = options.path ?? '/';
  const routes: RouteObject[] = [
    { path: options.routePath ?? path.replace(/[?#].*$/, ''), element },
    { path: '*', element: <LocationProbe /> },
  ];
  return renderRoutes(routes, { path, state: options.state });
}

/** Renders a route list (for example a feature's routes) in a memory router and the SessionProvider. */
export function renderRoutes(routes: RouteObject[], options: { path?: string; state?: unknown } = {}) {
  // A path may carry a query and a hash ('/reset-password?token=…'): the router matches the pathname alone.
  const [, pathname = '/', search = '', hash = ''] = /^([^?#]*)(\?[^#]*)?(#.*)?$/.exec(options.path ?? '/') ?? [];
  const router = createMemoryRouter(routes, { initialEntries: [{ pathname, search, hash, state: options.state }] });
  const result = render(
    <SessionProvider>
      <RouterProvider router={router} />
    </SessionProvider>,
  );
  return { ...result, router };
}

/** The path the probe shows after a navigation away from the screen under test. */
export async function currentPath(): Promise<string> {
  return (await screen.findByTestId('location')).textContent ?? '';
}
