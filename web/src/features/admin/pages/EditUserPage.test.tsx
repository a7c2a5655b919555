import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CUSTOMER_ID, json, mockApi, renderRoutes, sampleAdmin, sampleUser } from '../../../lib/api/queries/testing/testApi';
import { adminRoutes } from '../routes';

afterEach(() => {
  vi.unstubAllGlobals();
  localStorage.clear();
});

const path = `/admin/users/edit/${CUSTOMER_ID}`;

function api(answer: () => Response = () => json(200, { message: 'User updated successfully', data: sampleUser() })) {
  return mockApi({
    [`GET /api/user/admin/${CUSTOMER_ID}`]: () => json(200, { data: sampleUser({ hasPaymentPin: false }) }),
    [`PUT /api/user/admin/${CUSTOMER_ID}`]: answer,
  });
}

describe('/admin/users/edit/:id', () => {
  it.each(['First name', 'Last name', 'E-mail', 'Phone', 'Address', 'State'])("says 'All fields are required' when %s is empty, without a call", async (label) => {
    const { callsTo } = api();
    renderRoutes(adminRoutes, path, sampleAdmin());
    await userEvent.clear(await screen.findByLabelText(label));
    await userEvent.click(screen.getByRole('button', { name: 'Save user' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('All fields are required');
    expect(callsTo('PUT', `/api/user/admin/${CUSTOMER_ID}`)).toHaveLength(0);
  });

  it('sends the info, status and flags without a pin when none was entered, and shows the server message', async () => {
    const { callsTo } = api();
    const type = userEvent.setup();
    renderRoutes(adminRoutes, path, sampleAdmin());
    await type.clear(await screen.findByLabelText('Phone'));
    await type.type(screen.getByLabelText('Phone'), '+1 555 0111');
    await type.selectOptions(screen.getByLabelText('Verification status'), 'verified');
    await type.click(screen.getByLabelText(/Block transfers/));
    await type.click(screen.getByRole('button', { name: 'Save user' }));
    expect(await screen.findByRole('status')).toHaveTextContent('User updated successfully');
    expect(callsTo('PUT', `/api/user/admin/${CUSTOMER_ID}`)[0]?.body).toEqual({
      firstName: 'Grace',
      lastName: 'Hopper',
      email: 'grace@example.com',
      phone: '+1 555 0111',
      location: { address: '1 Navy Way', state: 'VA' },
      verificationStatus: 'verified',
      isBlocked: true,
      isDisabled: false,
    });
  });

  it('sends a 6-digit payment pin only when one is entered', async () => {
    const { callsTo } = api();
    const type = userEvent.setup();
    renderRoutes(adminRoutes, path, sampleAdmin());
    const pin = await screen.findByLabelText('New payment pin');
    await type.type(pin, '123');
    await type.click(screen.getByRole('button', { name: 'Save user' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Payment pin must be 6 digits');
    await type.type(pin, '456');
    await type.click(screen.getByRole('button', { name: 'Save user' }));
    expect(await screen.findByRole('status')).toHaveTextContent('User updated successfully');
    expect(callsTo('PUT', `/api/user/admin/${CUSTOMER_ID}`)[0]?.body).toMatchObject({ paymentPin: '123456' });
    expect(pin).toHaveValue('');
  });

  it("shows the server's refusal", async () => {
    api(() => json(422, { message: 'All fields are required' }));
    renderRoutes(adminRoutes, path, sampleAdmin());
    await userEvent.click(await screen.findByRole('button', { name: 'Save user' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('All fields are required');
  });
});
