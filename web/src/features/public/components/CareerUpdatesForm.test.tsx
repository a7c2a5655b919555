import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { failOnConsoleError } from '../../../components/testing/failOnConsoleError';
import { CareerUpdatesForm } from './CareerUpdatesForm';

describe('CareerUpdatesForm', () => {
  failOnConsoleError();
  const fetchMock = vi.fn<typeof fetch>();
  beforeEach(() => vi.stubGlobal('fetch', fetchMock));
  afterEach(() => vi.unstubAllGlobals());

  it('checks the address, thanks the person and makes no call', async () => {
    render(<CareerUpdatesForm />);
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Subscribe' }));
    expect(await screen.findByText('Email is required')).toBeInTheDocument();
    await user.type(screen.getByLabelText('Email address'), 'not-an-address');
    await user.click(screen.getByRole('button', { name: 'Subscribe' }));
    expect(await screen.findByText('Please enter a valid email address')).toBeInTheDocument();
    await user.clear(screen.getByLabelText('Email address'));
    await user.type(screen.getByLabelText('Email address'), 'jobs@example.com');
    await user.click(screen.getByRole('button', { name: 'Subscribe' }));
    expect(await screen.findByRole('status')).toHaveTextContent('Thanks — we’ll be in touch.');
    expect(screen.getByLabelText('Email address')).toHaveValue('');
    expect(fetchMock).not.toHaveBeenCalled();
  });
});
