import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { failOnConsoleError } from '../../../components/testing/failOnConsoleError';
import { jsonResponse, sentBody } from '../../../components/testing/jsonResponse';
import { CONTACT_SUCCESS_MESSAGE, ContactForm } from './ContactForm';

describe('ContactForm', () => {
  failOnConsoleError();
  const fetchMock = vi.fn<typeof fetch>();
  beforeEach(() => {
    fetchMock.mockReset();
    vi.stubGlobal('fetch', fetchMock);
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  async function fillAndSend(values: { name?: string; email?: string; phone?: string; subject?: string; message?: string } = {}) {
    const filled = { name: 'Grace Hopper', email: 'grace@example.com', phone: '', subject: 'Card', message: 'My card is stuck in an ATM.', ...values };
    const user = userEvent.setup(vi.isFakeTimers() ? { advanceTimers: vi.advanceTimersByTime } : {});
    if (filled.name) await user.type(screen.getByLabelText('Name *'), filled.name);
    if (filled.email) await user.type(screen.getByLabelText('Email *'), filled.email);
    if (filled.phone) await user.type(screen.getByLabelText('Phone (optional)'), filled.phone);
    if (filled.subject) await user.type(screen.getByLabelText('Subject (optional)'), filled.subject);
    if (filled.message) await user.type(screen.getByLabelText('Message *'), filled.message);
    await user.click(screen.getByRole('button', { name: 'Send Message' }));
  }

  it('requires name, e-mail and message and sends nothing without them', async () => {
    render(<ContactForm />);
    await userEvent.click(screen.getByRole('button', { name: 'Send Message' }));
    expect(await screen.findByText('Name is required')).toBeInTheDocument();
    expect(screen.getByText('Email is required')).toBeInTheDocument();
    expect(screen.getByText('Message is required')).toBeInTheDocument();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('refuses a malformed e-mail address', async () => {
    render(<ContactForm />);
    await fillAndSend({ email: 'grace-at-example' });
    expect(await screen.findByText('Please enter a valid email address')).toBeInTheDocument();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('has a hidden bot-check field named website, out of the tab order and hidden from assistive tech', () => {
    const { container } = render(<ContactForm />);
    const website = container.querySelector('input[name="website"]');
    expect(website).not.toBeNull();
    expect(website).toHaveAttribute('tabindex', '-1');
    expect(website).toHaveAttribute('autocomplete', 'off');
    expect(website?.closest('[aria-hidden="true"]')).not.toBeNull();
    expect(website?.closest('.bot-check')).not.toBeNull();
  });

  it('posts the message, clears the fields and shows the success message for 3000 ms', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    fetchMock.mockResolvedValueOnce(jsonResponse(201, { message: 'Message received' }));
    render(<ContactForm />);
    await fillAndSend({ phone: '+1 303 555 0199' });

    expect(await screen.findByText(CONTACT_SUCCESS_MESSAGE)).toBeInTheDocument();
    expect(fetchMock.mock.calls[0]?.[0]).toBe('/api/contacts');
    expect(fetchMock.mock.calls[0]?.[1]?.method).toBe('POST');
    expect(sentBody(fetchMock)).toEqual({
      name: 'Grace Hopper',
      email: 'grace@example.com',
      phone: '+1 303 555 0199',
      subject: 'Card',
      message: 'My card is stuck in an ATM.',
      website: '',
    });
    for (const label of ['Name *', 'Email *', 'Phone (optional)', 'Subject (optional)', 'Message *']) expect(screen.getByLabelText(label)).toHaveValue('');

    act(() => vi.advanceTimersByTime(2500));
    expect(screen.getByText(CONTACT_SUCCESS_MESSAGE)).toBeInTheDocument();
    act(() => vi.advanceTimersByTime(600));
    expect(screen.queryByText(CONTACT_SUCCESS_MESSAGE)).not.toBeInTheDocument();
  });

  it('leaves out empty optional fields', async () => {
    fetchMock.mockResolvedValueOnce(jsonResponse(201, { message: 'ok' }));
    render(<ContactForm />);
    await fillAndSend({ subject: '' });
    await screen.findByText(CONTACT_SUCCESS_MESSAGE);
    expect(sentBody(fetchMock)).toEqual({ name: 'Grace Hopper', email: 'grace@example.com', message: 'My card is stuck in an ATM.', website: '' });
  });

  it("shows the server's error, not the success message, and keeps what was typed", async () => {
    fetchMock.mockResolvedValueOnce(jsonResponse(429, { message: 'Too many messages, please try again later' }, { 'Retry-After': '60' }));
    render(<ContactForm />);
    await fillAndSend();
    expect(await screen.findByRole('alert')).toHaveTextContent('Too many messages, please try again later');
    expect(screen.queryByText(CONTACT_SUCCESS_MESSAGE)).not.toBeInTheDocument();
    expect(screen.getByLabelText('Name *')).toHaveValue('Grace Hopper');
    expect(screen.getByRole('button', { name: 'Send Message' })).toBeEnabled();
  });

  it('says the bank cannot be reached when the network fails', async () => {
    fetchMock.mockRejectedValueOnce(new TypeError('Failed to fetch'));
    render(<ContactForm />);
    await fillAndSend();
    expect(await screen.findByRole('alert')).toHaveTextContent('Cannot reach the bank right now');
    expect(screen.queryByText(CONTACT_SUCCESS_MESSAGE)).not.toBeInTheDocument();
  });
});
