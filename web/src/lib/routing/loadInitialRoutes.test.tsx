import { render, screen } from '@testing-library/react';
import { createMemoryRouter, Outlet, RouterProvider, type RouteObject } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { lazyPage } from './lazyPage';
import { loadInitialRoutes } from './loadInitialRoutes';

function routeTable(loads: string[]): RouteObject[] {
  const page = (name: string) => async () => {
    loads.push(name);
    return { [name]: () => <h1>{name}</h1> };
  };
  return [
    {
      Component: lazyPage(async () => {
        loads.push('Frame');
        return { Frame: () => <main><Outlet /></main> };
      }, 'Frame'),
      children: [
        { path: '/a', Component: lazyPage(page('PageA'), 'PageA') },
        { path: '/b', Component: lazyPage(page('PageB'), 'PageB') },
      ],
    },
  ];
}

describe('lazyPage and loadInitialRoutes', () => {
  it('loads only the screens matching the location, so the first render shows the screen at once', async () => {
    const loads: string[] = [];
    const routes = routeTable(loads);
    await loadInitialRoutes(routes, '/b');
    expect(loads.sort()).toEqual(['Frame', 'PageB']);
    render(<RouterProvider router={createMemoryRouter(routes, { initialEntries: ['/b'] })} />);
    // Synchronously there: no loading state in between.
    expect(screen.getByRole('heading', { name: 'PageB' })).toBeInTheDocument();
    expect(screen.getByRole('main')).toBeInTheDocument();
  });

  it('a screen not loaded yet suspends, then shows, loading its module once', async () => {
    const loads: string[] = [];
    const routes = routeTable(loads);
    render(<RouterProvider router={createMemoryRouter(routes, { initialEntries: ['/a'] })} />);
    expect(await screen.findByRole('heading', { name: 'PageA' })).toBeInTheDocument();
    expect(loads.sort()).toEqual(['Frame', 'PageA']);
  });

  it('leaves a screen whose load fails to the render, which tries again', async () => {
    let attempts = 0;
    const Flaky = lazyPage(async () => {
      attempts += 1;
      if (attempts === 1) throw new Error('offline');
      return { Page: () => <h1>Back online</h1> };
    }, 'Page');
    const routes: RouteObject[] = [{ path: '/', Component: Flaky }];
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    await expect(loadInitialRoutes(routes, '/')).resolves.toBeUndefined();
    expect(warn).toHaveBeenCalledOnce();
    warn.mockRestore();
    render(<RouterProvider router={createMemoryRouter(routes)} />);
    expect(await screen.findByRole('heading', { name: 'Back online' })).toBeInTheDocument();
    expect(attempts).toBe(2);
  });
});

describe('lazyArea', () => {
  it('mounts an area\'s absolute routes below its prefix, preloaded with its first screen', async () => {
    const { lazyArea, relativeTo } = await import('./lazyArea');
    const areaRoutes: RouteObject[] = [
      { path: '/desk', element: <p>index</p> },
      { element: <section><Outlet /></section>, children: [{ path: '/desk/users/:id', Component: lazyPage(async () => ({ User: () => <h1>A user</h1> }), 'User') }] },
    ];
    expect(relativeTo('/desk', areaRoutes).map((route) => route.path ?? (route.index ? 'index' : 'layout'))).toEqual(['index', 'layout']);
    expect(relativeTo('/desk', areaRoutes)[1]!.children![0]!.path).toBe('users/:id');
    expect(() => relativeTo('/desk', [{ path: '/elsewhere' }])).toThrow(/outside its area/);

    const routes: RouteObject[] = [{ path: '/desk/*', Component: lazyArea('/desk', async () => ({ routes: areaRoutes })) }];
    await loadInitialRoutes(routes, '/desk/users/7');
    render(<RouterProvider router={createMemoryRouter(routes, { initialEntries: ['/desk/users/7'] })} />);
    expect(screen.getByRole('heading', { name: 'A user' })).toBeInTheDocument();
  });
});
