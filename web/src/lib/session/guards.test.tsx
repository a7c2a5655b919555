import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { RouteObject } from 'react-router';
import { json, mockApi, renderRoutes, sampleAdmin, sampleUser } from '../api/queries/testing/testApi';
import { isAdminUser, RequireAdmin, RequireAuth, returnPath } from './guards';

const routes: RouteObject[] = [
  { path: '/account/home', element: <RequireAuth><h1>Customer home</h1></RequireAuth> },
  { path: '/admin/dashboard', element: <RequireAdmin><h1>Admin dashboard</h1></RequireAdmin> },
  { path: '/admin/login', element: <h1>Admin login</h1> },
];


afterEach(() => {
  vi.unstubAllGlobals();
  localStorage.clear();
});

describe('RequireAuth', () => {
  it('sends a visitor to /signin with the page they wanted as `from`', async () => {
    mockApi({});
    const { router } = renderRoutes(routes, '/account/home', null);
    expect(await screen.findByTestId('location')).toHaveTextContent('/signin');
    expect(router.state.location.state).toEqual({ from: '/account/home' });
    expect(screen.queryByRole('heading', { name: 'Customer home' })).not.toBeInTheDocument();
  });

  it('lets a signed-in customer in', async () => {
    mockApi({});
    renderRoutes(routes, '/account/home', sampleUser());
    expect(await screen.findByRole('heading', { name: 'Customer home' })).toBeInTheDocument();
  });

  it('with only a token stored, loads its user from GET /auth/user and lets them in', async () => {
    const api = mockApi({ 'GET /api/auth/user': () => json(200, { data: sampleUser({ firstName: 'Tokenly' }) }) });
    renderRoutes(routes, '/account/home', { tokenOnly: 'only-a-token' });
    expect(await screen.findByRole('heading', { name: 'Customer home' })).toBeInTheDocument();
    expect(api.callsTo('GET', '/api/auth/user')[0]!.headers.Authorization).toBe('Bearer only-a-token');
    expect(JSON.parse(localStorage.getItem('user')!)).toMatchObject({ firstName: 'Tokenly' });
  });
});

describe('RequireAdmin', () => {
  it('sends a visitor without a session to /signin with `from`', async () => {
    mockApi({});
    const { router } = renderRoutes(routes, '/admin/dashboard', null);
    expect(await screen.findByTestId('location')).toHaveTextContent('/signin');
    expect(router.state.location.state).toEqual({ from: '/admin/dashboard' });
    expect(screen.queryByRole('heading', { name: 'Admin dashboard' })).not.toBeInTheDocument();
  });

  it('sends a signed-in customer to /admin/login: the admin area is for admins only', async () => {
    mockApi({});
    renderRoutes(routes, '/admin/dashboard', sampleUser());
    expect(await screen.findByRole('heading', { name: 'Admin login' })).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Admin dashboard' })).not.toBeInTheDocument();
  });

  it('lets an admin in, whether flagged isAdmin or with the admin role', async () => {
    mockApi({});
    renderRoutes(routes, '/admin/dashboard', sampleAdmin());
    expect(await screen.findByRole('heading', { name: 'Admin dashboard' })).toBeInTheDocument();
    expect(isAdminUser(sampleUser({ role: 'admin', isAdmin: false }))).toBe(true);
    expect(isAdminUser(sampleUser({ role: 'auditor' }))).toBe(false);
  });
});

describe('returnPath', () => {
  it('accepts only paths inside the app', () => {
    expect(returnPath({ from: '/account/transfer' })).toBe('/account/transfer');
    expect(returnPath({ from: '//evil.example' })).toBeUndefined();
    expect(returnPath({ from: 'https://evil.example' })).toBeUndefined();
    expect(returnPath(null)).toBeUndefined();
  });
});
