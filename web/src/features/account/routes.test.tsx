import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { routes } from '../../app/router';
import { json, mockApi, sampleUser } from '../../lib/api/queries/testing/testApi';
import { SessionProvider } from '../../lib/session/SessionContext';
import { storeSession } from '../../lib/session/sessionStorage';

afterEach(() => {
  vi.unstubAllGlobals();
  localStorage.clear();
});

/** The whole app's route table, as app/router.tsx composes it. */
function renderApp(path: string) {
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <SessionProvider>
        <RouterProvider router={router} />
      </SessionProvider>
    </QueryClientProvider>,
  );
  return router;
}

describe('the customer area inside the whole route table', () => {
  it('leaves the public /account/savings and /account/checking pages open to visitors', async () => {
    mockApi({});
    const router = renderApp('/account/savings');
    expect(await screen.findByRole('heading', { level: 1 })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/account/savings');
    expect(screen.queryByRole('navigation', { name: 'Customer area' })).not.toBeInTheDocument();
  });

  it('guards /account/home: a visitor goes to the sign-in page, with `from`', async () => {
    mockApi({});
    const router = renderApp('/account/home');
    await waitFor(() => expect(router.state.location.pathname).toBe('/signin'));
    expect(router.state.location.state).toEqual({ from: '/account/home' });
  });

  it('guards /admin/users: a customer goes to /admin/login', async () => {
    storeSession('token', sampleUser());
    mockApi({ 'GET /api/auth/user': () => json(200, { data: sampleUser() }) });
    const router = renderApp('/admin/users');
    expect(await screen.findByRole('heading', { name: 'Admin Login' })).toBeInTheDocument();
    expect(router.state.location.state).toEqual({ from: '/admin/users' });
  });

  it('sends /account to /account/home for a signed-in customer', async () => {
    storeSession('token', sampleUser());
    mockApi({ 'GET /api/auth/user': () => json(200, { data: sampleUser() }), 'GET /api/transaction': () => json(200, { data: [] }) });
    const router = renderApp('/account');
    expect(await screen.findByRole('heading', { name: 'Overview' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/account/home');
  });
});
