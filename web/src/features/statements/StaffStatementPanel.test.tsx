import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { mockApi, sampleAdmin } from '../../lib/api/queries/testing/testApi';
import { storeSession } from '../../lib/session/sessionStorage';
import { StaffStatementPanel } from './StaffStatementPanel';

const CUSTOMER = 'c0000000-0000-4000-8000-00000000beef';

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(new Date('2026-01-20T08:00:00.000Z'));
  storeSession('staff-token', sampleAdmin());
});

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  localStorage.clear();
});

describe('StaffStatementPanel', () => {
  it("downloads a customer's statement through the staff route", async () => {
    const { callsTo } = mockApi({
      [`GET /api/audit/users/${CUSTOMER}/statements`]: () =>
        new Response('%PDF-1.3', { headers: { 'Content-Type': 'application/pdf', 'Content-Disposition': 'attachment; filename="statement-savings-2025-11-01-2025-11-30.pdf"' } }),
    });
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: vi.fn(() => 'blob:pdf'), revokeObjectURL: vi.fn() }));
    const saved: string[] = [];
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      saved.push(this.download);
    });
    render(<StaffStatementPanel userId={CUSTOMER} className="admin-card" />);
    expect(screen.getByRole('heading', { name: 'Statement' })).toBeInTheDocument();
    // The last full month by default.
    expect(screen.getByLabelText('Month')).toHaveValue('2025-12');
    await userEvent.selectOptions(screen.getByLabelText('Account'), 'savings');
    await userEvent.selectOptions(screen.getByLabelText('Month'), '2025-11');
    await userEvent.click(screen.getByRole('button', { name: 'Download statement PDF' }));
    await waitFor(() => expect(saved).toEqual(['statement-savings-2025-11-01-2025-11-30.pdf']));
    const [call] = callsTo('GET', `/api/audit/users/${CUSTOMER}/statements`);
    expect(Object.fromEntries(call!.url.searchParams)).toEqual({ account: 'savings', from: '2025-11-01', to: '2025-11-30', format: 'pdf' });
    expect(call!.headers.Authorization).toBe('Bearer staff-token');
    click.mockRestore();
  });
});
