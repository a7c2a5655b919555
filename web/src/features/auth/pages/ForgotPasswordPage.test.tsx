import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { failOnConsoleError } from '../../../components/testing/failOnConsoleError';
import { jsonResponse, sentBody } from '../../../components/testing/jsonResponse';
import { renderWithRouter } from '../../../components/testing/renderWithRouter';
import { sampleUser } from '../../../components/testing/sampleUser';
import { storeSession } from '../../../lib/session/sessionStorage';
import { ForgotPasswordPage } from './ForgotPasswordPage';

const ANSWER = 'If an account exists for this e-mail, we have sent a link to reset your password';

describe('ForgotPasswordPage', () => {
  failOnConsoleError();
  const fetchMock = vi.fn<typeof fetch>();
  beforeEach(() => {
    localStorage.clear();
    fetchMock.mockReset();
    vi.stubGlobal('fetch', fetchMock);
  });
  afterEach(() => vi.unstubAllGlobals());

  it('sends the address, then shows the answer page with the server message and the address', async () => {
    fetchMock.mockResolvedValueOnce(jsonResponse(202, { message: ANSWER }));
    renderWithRouter(<ForgotPasswordPage />, { path: '/forgot-password' });
    expect(screen.getByRole('heading', { level: 1, name: 'Reset your password' })).toBeInTheDocument();
    await userEvent.type(screen.getByLabelText('Email'), '  Ada@Example.com ');
    await userEvent.click(screen.getByRole('button', { name: 'Send reset link' }));

    await waitFor(async () => expect(await screen.findByRole('heading', { name: 'Check your e-mail' })).toHaveFocus());
    expect(screen.getByRole('status')).toHaveTextContent(ANSWER);
    expect(screen.getByText('Ada@Example.com')).toBeInTheDocument();
    const [url, init] = fetchMock.mock.calls[0]!;
    expect(url).toBe('/api/auth/forgot-password');
    expect(init?.method).toBe('POST');
    expect(sentBody(fetchMock)).toEqual({ email: 'Ada@Example.com' });

    // "Send again" brings the form back with the address kept.
    await userEvent.click(screen.getByRole('button', { name: 'Send again' }));
    expect((screen.getByLabelText('Email') as HTMLInputElement).value.trim()).toBe('Ada@Example.com');
  });

  it('never sends the stored session with the request', async () => {
    storeSession('a-session', sampleUser());
    fetchMock.mockResolvedValueOnce(jsonResponse(202, { message: ANSWER }));
    renderWithRouter(<ForgotPasswordPage />, { path: '/forgot-password' });
    await userEvent.type(screen.getByLabelText('Email'), 'ada@example.com');
    await userEvent.click(screen.getByRole('button', { name: 'Send reset link' }));
    await screen.findByRole('heading', { name: 'Check your e-mail' });
    expect((fetchMock.mock.calls[0]![1]?.headers as Record<string, string>).Authorization).toBeUndefined();
  });

  it('checks the address before sending anything', async () => {
    renderWithRouter(<ForgotPasswordPage />, { path: '/forgot-password' });
    await userEvent.click(screen.getByRole('button', { name: 'Send reset link' }));
    expect(screen.getByText('Email is required')).toBeInTheDocument();
    await userEvent.type(screen.getByLabelText('Email'), 'not-an-address');
    await userEvent.click(screen.getByRole('button', { name: 'Send reset link' }));
    expect(screen.getByText('Enter a valid e-mail address')).toBeInTheDocument();
    expect(screen.getByLabelText('Email')).toHaveAttribute('aria-invalid', 'true');
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('says how long to wait after a 429 and keeps the form', async () => {
    fetchMock.mockResolvedValueOnce(jsonResponse(429, { message: 'Too many requests' }, { 'Retry-After': '42' }));
    renderWithRouter(<ForgotPasswordPage />, { path: '/forgot-password' });
    await userEvent.type(screen.getByLabelText('Email'), 'ada@example.com');
    await userEvent.click(screen.getByRole('button', { name: 'Send reset link' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Too many requests. Please try again in 42 seconds.');
    expect(screen.getByRole('button', { name: 'Send reset link' })).toBeEnabled();
  });

  it('says when the bank cannot be reached', async () => {
    fetchMock.mockRejectedValueOnce(new TypeError('Failed to fetch'));
    renderWithRouter(<ForgotPasswordPage />, { path: '/forgot-password' });
    await userEvent.type(screen.getByLabelText('Email'), 'ada@example.com');
    await userEvent.click(screen.getByRole('button', { name: 'Send reset link' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Cannot reach the bank right now');
  });

  it('keeps a way back to sign in and to customer care', () => {
    renderWithRouter(<ForgotPasswordPage />, { path: '/forgot-password' });
    expect(screen.getByRole('link', { name: 'Back to login' })).toHaveAttribute('href', '/signin');
    expect(screen.getByRole('link', { name: 'send us a message' })).toHaveAttribute('href', '/contact');
  });
});
