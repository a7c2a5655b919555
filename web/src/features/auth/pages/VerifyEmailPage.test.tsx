import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { failOnConsoleError } from '../../../components/testing/failOnConsoleError';
import { jsonResponse, sentBody } from '../../../components/testing/jsonResponse';
import { renderWithRouter } from '../../../components/testing/renderWithRouter';
import { sampleUser } from '../../../components/testing/sampleUser';
import { storeSession } from '../../../lib/session/sessionStorage';
import { VerifyEmailPage } from './VerifyEmailPage';

describe('VerifyEmailPage', () => {
  failOnConsoleError();
  const fetchMock = vi.fn<typeof fetch>();
  beforeEach(() => {
    localStorage.clear();
    fetchMock.mockReset();
    vi.stubGlobal('fetch', fetchMock);
  });
  afterEach(() => vi.unstubAllGlobals());

  it('confirms the address once as it opens and leads a visitor to sign in', async () => {
    fetchMock.mockResolvedValueOnce(jsonResponse(200, { message: 'E-mail address confirmed' }));
    renderWithRouter(<VerifyEmailPage />, { path: '/verify-email?token=v-1' });
    expect(screen.getAllByText('Confirming your e-mail address…').length).toBeGreaterThan(0);
    // The heading appears with the answer; focus moves to it in the effect that follows.
    const thanks = await screen.findByRole('heading', { name: 'Thank you' });
    await waitFor(() => expect(thanks).toHaveFocus());
    expect(screen.getByRole('status')).toHaveTextContent('E-mail address confirmed');
    expect(screen.getByRole('link', { name: 'Sign in' })).toHaveAttribute('href', '/signin');
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(fetchMock.mock.calls[0]![0]).toBe('/api/auth/verify-email');
    expect(sentBody(fetchMock)).toEqual({ token: 'v-1' });
  });

  it('reloads the signed-in user of this browser before saying so, so the portal behind the link has no banner', async () => {
    storeSession('jwt', sampleUser({ emailVerified: false }));
    fetchMock.mockResolvedValueOnce(jsonResponse(200, { message: 'E-mail address confirmed' }));
    let answerUser: (response: Response) => void = () => undefined;
    fetchMock.mockReturnValueOnce(new Promise<Response>((resolve) => (answerUser = resolve)));
    renderWithRouter(<VerifyEmailPage />, { path: '/verify-email?token=v-2' });
    // While the user is being reloaded the page is still confirming: no way on to the portal yet.
    await vi.waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(2));
    expect(screen.queryByRole('link', { name: 'Go to your account' })).toBeNull();
    answerUser(jsonResponse(200, { data: sampleUser({ emailVerified: true }) }));
    expect(await screen.findByRole('link', { name: 'Go to your account' })).toHaveAttribute('href', '/account/home');
    expect(JSON.parse(localStorage.getItem('user') ?? '{}')).toMatchObject({ emailVerified: true });
    expect((fetchMock.mock.calls[0]![1]?.headers as Record<string, string>).Authorization).toBeUndefined();
    expect(fetchMock.mock.calls[1]![0]).toBe('/api/auth/user');
  });

  it('says clearly when the link is used or expired', async () => {
    fetchMock.mockResolvedValueOnce(jsonResponse(400, { message: 'Invalid or expired link' }));
    renderWithRouter(<VerifyEmailPage />, { path: '/verify-email?token=v-3' });
    expect(await screen.findByRole('heading', { name: 'This link cannot be used' })).toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent('Invalid or expired link');
  });

  it('offers to try again when the bank cannot be reached, and then confirms', async () => {
    fetchMock.mockRejectedValueOnce(new TypeError('Failed to fetch'));
    renderWithRouter(<VerifyEmailPage />, { path: '/verify-email?token=v-4' });
    expect(await screen.findByRole('alert')).toHaveTextContent('Cannot reach the bank right now');
    fetchMock.mockResolvedValueOnce(jsonResponse(200, { message: 'E-mail address confirmed' }));
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('heading', { name: 'Thank you' })).toBeInTheDocument();
    expect(fetchMock).toHaveBeenCalledTimes(2);
  });

  it('sends nothing without a token', () => {
    renderWithRouter(<VerifyEmailPage />, { path: '/verify-email' });
    expect(screen.getByRole('heading', { name: 'This link cannot be used' })).toBeInTheDocument();
    expect(fetchMock).not.toHaveBeenCalled();
  });
});
