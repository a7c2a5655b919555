import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { json, mockApi, renderRoutes, sampleAdmin } from '../../../lib/api/queries/testing/testApi';
import type { Beneficiary } from '../../../lib/api/types';
import { adminRoutes } from '../routes';
import { DELETE_BENEFICIARY_QUESTION } from './AdminBeneficiariesPage';

afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
  localStorage.clear();
});

describe('/admin/beneficiaries', () => {
  it("adds a beneficiary: 'Beneficiary added successfully', form cleared, list reloaded", async () => {
    const directory: Beneficiary[] = [];
    const { callsTo } = mockApi({
      'GET /api/beneficiaries': () => json(200, { data: directory }),
      'POST /api/beneficiaries': ({ body }) => {
        directory.push({ _id: 'b1', ...(body as Omit<Beneficiary, '_id'>) });
        return json(201, { message: 'Beneficiary added successfully' });
      },
    });
    const type = userEvent.setup();
    renderRoutes(adminRoutes, '/admin/beneficiaries', sampleAdmin());
    expect(await screen.findByText('No beneficiaries yet.')).toBeInTheDocument();
    await type.type(screen.getByLabelText('Name'), 'City Power');
    await type.type(screen.getByLabelText('Account number'), '5550001111');
    await type.type(screen.getByLabelText('Bank name'), 'First Bank');
    await type.click(screen.getByRole('button', { name: 'Add beneficiary' }));
    expect(await screen.findByRole('status')).toHaveTextContent('Beneficiary added successfully');
    expect(callsTo('POST', '/api/beneficiaries')[0]?.body).toEqual({ name: 'City Power', accountNumber: '5550001111', bankName: 'First Bank' });
    expect(screen.getByLabelText('Name')).toHaveValue('');
    expect(await screen.findByRole('cell', { name: 'City Power' })).toBeInTheDocument();
  });

  it("says 'All fields are required' without name or account number", async () => {
    const { callsTo } = mockApi({ 'GET /api/beneficiaries': () => json(200, { data: [] }) });
    renderRoutes(adminRoutes, '/admin/beneficiaries', sampleAdmin());
    await userEvent.click(await screen.findByRole('button', { name: 'Add beneficiary' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('All fields are required');
    expect(callsTo('POST', '/api/beneficiaries')).toHaveLength(0);
  });

  it('deletes after a native confirmation, and not when cancelled', async () => {
    const { callsTo } = mockApi({
      'GET /api/beneficiaries': () => json(200, { data: [{ _id: 'b1', name: 'City Power', accountNumber: '5550001111' }] }),
      'DELETE /api/beneficiaries/b1': () => json(200, { message: 'Beneficiary deleted' }),
    });
    const confirm = vi.spyOn(window, 'confirm').mockReturnValueOnce(false).mockReturnValueOnce(true);
    renderRoutes(adminRoutes, '/admin/beneficiaries', sampleAdmin());
    await userEvent.click(await screen.findByRole('button', { name: 'Delete City Power' }));
    expect(confirm).toHaveBeenCalledTimes(1);
    expect(confirm).toHaveBeenLastCalledWith('Are you sure you want to delete this beneficiary?');
    expect(callsTo('DELETE', '/api/beneficiaries/b1')).toHaveLength(0);
    await userEvent.click(screen.getByRole('button', { name: 'Delete City Power' }));
    expect(confirm).toHaveBeenCalledTimes(2);
    expect(confirm).toHaveBeenLastCalledWith(DELETE_BENEFICIARY_QUESTION);
    expect(await screen.findByRole('status')).toHaveTextContent('Beneficiary deleted');
    await waitFor(() => expect(callsTo('DELETE', '/api/beneficiaries/b1')).toHaveLength(1));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it("shows the server's refusal of a deletion", async () => {
    mockApi({
      'GET /api/beneficiaries': () => json(200, { data: [{ _id: 'b1', name: 'City Power', accountNumber: '5550001111' }] }),
      'DELETE /api/beneficiaries/b1': () => json(404, { message: 'Beneficiary not found' }),
    });
    vi.spyOn(window, 'confirm').mockReturnValue(true);
    renderRoutes(adminRoutes, '/admin/beneficiaries', sampleAdmin());
    await userEvent.click(await screen.findByRole('button', { name: 'Delete City Power' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Beneficiary not found');
  });

  it('pages the directory with Next and Previous', async () => {
    const { callsTo } = mockApi({
      'GET /api/beneficiaries': ({ url }) =>
        json(
          200,
          url.searchParams.get('cursor') === 'older'
            ? { data: [{ _id: 'b2', name: 'Old Water Co', accountNumber: '22223333' }], next: null }
            : { data: [{ _id: 'b1', name: 'New Power Co', accountNumber: '44445555' }], next: 'older' },
        ),
    });
    renderRoutes(adminRoutes, '/admin/beneficiaries', sampleAdmin());
    expect(await screen.findByText('New Power Co')).toBeInTheDocument();
    await userEvent.click(within(screen.getByRole('navigation', { name: 'Beneficiaries pages' })).getByRole('button', { name: 'Next' }));
    expect(await screen.findByText('Old Water Co')).toBeInTheDocument();
    expect(callsTo('GET', '/api/beneficiaries').at(-1)!.url.searchParams.get('cursor')).toBe('older');
    await userEvent.click(within(screen.getByRole('navigation', { name: 'Beneficiaries pages' })).getByRole('button', { name: 'Previous' }));
    expect(await screen.findByText('New Power Co')).toBeInTheDocument();
  });
});
