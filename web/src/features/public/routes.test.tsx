import { act, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { failOnConsoleError } from '../../components/testing/failOnConsoleError';
import { renderRoutes } from '../../components/testing/renderWithRouter';
import { stubMatchMedia } from '../../components/testing/stubMatchMedia';
import { authRoutes } from '../auth/routes';
import { notFoundRoute, publicRoutes } from './routes';
import { documentTitle, publicPages } from './publicPages';

const routes = [...publicRoutes, ...authRoutes, notFoundRoute];

describe('public and auth routes', () => {
  failOnConsoleError();
  const fetchMock = vi.fn<typeof fetch>();
  beforeEach(() => {
    localStorage.clear();
    // Each test counts its own calls (the savings page asks GET /rates).
    fetchMock.mockClear();
    vi.stubGlobal('fetch', fetchMock);
    stubMatchMedia();
    vi.spyOn(window, 'scrollTo').mockImplementation(() => undefined);
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  it.each([
    ['/', 'Summit Bank: personal and business banking'],
    ['/account/savings', 'Savings that grow with every deposit'],
    ['/account/checking', 'Everyday banking, without the fees'],
    ['/cards/credit-card', 'A card for every way you spend'],
    ['/loan/home-loan', 'Finance the home you have been dreaming of'],
    ['/loan/auto-loan', 'Drive away in your next car sooner'],
    ['/about', 'About Summit Bank'],
    ['/careers', 'Grow your career with us'],
    ['/contact', 'We are here to help'],
    ['/signin', 'Login to Your Account'],
    ['/signup', 'Create Your Account'],
    ['/forgot-password', 'Reset your password'],
    ['/reset-password?token=t', 'Choose a new password'],
    ['/no/such/page', 'Not Found'],
  ])('%s shows "%s" inside the shared layout', async (path, heading) => {
    renderRoutes(routes, { path });
    expect(await screen.findByRole('heading', { level: 1, name: heading })).toBeInTheDocument();
    const header = screen.getByRole('banner');
    expect(within(header).getByRole('navigation', { name: 'Main' })).toBeInTheDocument();
    expect(within(header).getByRole('link', { name: 'Login' })).toHaveAttribute('href', '/signin');
    expect(within(header).getByRole('link', { name: 'Open an Account' })).toHaveAttribute('href', '/signup');
    expect(screen.getByRole('main')).toBeInTheDocument();
    expect(screen.getByRole('contentinfo')).toHaveTextContent('Mon-Fri 9.00am to 5.00pm');
  });

  it('the home page makes no API call (it does not fetch /contacts)', async () => {
    renderRoutes(routes, { path: '/' });
    await screen.findByRole('heading', { level: 1 });
    expect(screen.getByText('Trade FX')).toBeInTheDocument();
    expect(screen.getAllByText('Block Debit/ATM Card').length).toBeGreaterThan(0);
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('shows My Account instead of Login and Open an Account to a signed-in visitor', async () => {
    localStorage.setItem('token', 't');
    localStorage.setItem('user', JSON.stringify({ firstName: 'Ada' }));
    renderRoutes(routes, { path: '/' });
    const header = await screen.findByRole('banner');
    expect(within(header).getByRole('link', { name: 'My Account' })).toHaveAttribute('href', '/account/home');
    expect(within(header).queryByRole('link', { name: 'Login' })).not.toBeInTheDocument();
    expect(within(header).queryByRole('link', { name: 'Open an Account' })).not.toBeInTheDocument();
  });

  it.each(publicPages.map((page) => [page.path, page] as const))('%s, reached by a link, gets the title, description and canonical link of publicPages', async (path, page) => {
    const start = path === '/contact' ? '/about' : '/contact';
    const { router } = renderRoutes(routes, { path: start });
    await screen.findByRole('heading', { level: 1 });
    await act(() => router.navigate(path));
    await waitFor(() => expect(document.title).toBe(documentTitle(page.title)));
    await waitFor(() => expect(document.head.querySelector('meta[name="description"]')).toHaveAttribute('content', page.description));
    expect(document.head.querySelector('link[rel="canonical"]')).toHaveAttribute('href', `https://www.summitbank.example${path}`);
  });

  it('a path that is no public page gets no canonical link', async () => {
    const { router } = renderRoutes(routes, { path: '/about' });
    await screen.findByRole('heading', { level: 1, name: 'About Summit Bank' });
    await act(() => router.navigate('/contact'));
    await waitFor(() => expect(document.head.querySelector('link[rel="canonical"]')).not.toBeNull());
    await act(() => router.navigate('/no/such/page'));
    await screen.findByRole('heading', { level: 1, name: 'Not Found' });
    await waitFor(() => expect(document.head.querySelector('link[rel="canonical"]')).toBeNull());
  });
});
