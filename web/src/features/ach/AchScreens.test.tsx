import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { failOnConsoleError } from '../../components/testing/failOnConsoleError';
import { json, mockApi, renderAudit, staffUser } from '../audit/auditTestUtils';
import { FILE_ID, NACHA_TEXT, RETURN_ID, SHA, TRANSFER, sampleFile, sampleFileDetail } from './achTestData';

failOnConsoleError();

afterEach(() => {
  vi.unstubAllGlobals();
  localStorage.clear();
});

const admin = staffUser('admin');
const FILES = 'GET /api/admin/ach/files';

/** A promise and its resolve, to hold an answer back while the loading state shows. */
function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}

describe('the ACH files (/audit/ach)', () => {
  it('shows the loading state, then each file with its totals, status, shortened hash and links, paging with Show more (auditor: nothing to build or upload)', { timeout: 20_000 }, async () => {
    const held = deferred<Response>();
    const older = sampleFile({ id: 'f2', createdAt: '2026-11-24T17:05:00.000Z', effectiveDate: '2026-11-25', status: 'created', entryCount: 1, totalDebit: 0, totalCredit: 7 });
    const { calls } = mockApi({ [FILES]: (url) => (url.searchParams.get('cursor') === 'c2' ? json(200, { data: [older], next: null }) : held.promise) });
    renderAudit('/audit/ach');
    expect(await screen.findByText('Loading the ACH files…', { selector: '[aria-hidden]' })).toBeInTheDocument();
    held.resolve(json(200, { data: [sampleFile()], next: 'c2' }));

    const table = await screen.findByRole('table', { name: '1 file shown, more to load' });
    const row = within(table).getAllByRole('row')[1]!;
    expect(row).toHaveTextContent('2026-11-27');
    expect(row).toHaveTextContent('$0.00');
    expect(row).toHaveTextContent('$1,234.56');
    expect(row).toHaveTextContent('Transmitted');
    expect(within(row).getByTitle(SHA)).toHaveTextContent(/^ab12cd34ef56…$/);
    expect(within(row).getByRole('link', { name: /Nov 25, 2026/ })).toHaveAttribute('href', `/audit/ach/files/${FILE_ID}`);
    expect(within(row).getByRole('button', { name: /^Copy ?SHA-256/ })).toBeInTheDocument();
    expect(within(row).getByRole('button', { name: /^Download/ })).toBeInTheDocument();
    expect(calls[0]?.searchParams.get('limit')).toBe('50');

    expect(screen.queryByRole('button', { name: 'Build file now' })).not.toBeInTheDocument();
    expect(within(screen.getByRole('navigation', { name: 'ACH' })).getAllByRole('link').map((link) => link.textContent)).toEqual(['Files']);
    expect(within(screen.getByRole('navigation', { name: 'Audit' })).getByRole('link', { name: 'ACH' })).toHaveAttribute('aria-current', 'page');

    await userEvent.click(screen.getByRole('button', { name: 'Show more files' }));
    const both = await screen.findByRole('table', { name: '2 files' });
    expect(within(both).getAllByRole('row')[2]).toHaveTextContent('Created');
    expect(calls.at(-1)?.searchParams.get('cursor')).toBe('c2');
  });

  it('says when no file has been built yet', async () => {
    mockApi({ [FILES]: () => json(200, { data: [], next: null }) });
    renderAudit('/audit/ach');
    expect(await screen.findByText('No ACH file has been built yet.')).toBeInTheDocument();
  });

  it("shows the server's error and tries again", async () => {
    let failing = true;
    mockApi({ [FILES]: () => (failing ? json(500, { message: 'Something went wrong (request 7)' }) : json(200, { data: [sampleFile()], next: null })) });
    renderAudit('/audit/ach');
    expect(await screen.findByRole('alert')).toHaveTextContent('Something went wrong (request 7)');
    failing = false;
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('table', { name: '1 file' })).toBeInTheDocument();
  });

  it('copies the whole hash and downloads the NACHA text with the session', { timeout: 20_000 }, async () => {
    const writeText = vi.fn(async () => undefined);
    vi.stubGlobal('navigator', { ...navigator, clipboard: { writeText } });
    const { fetchMock } = mockApi({
      [FILES]: () => json(200, { data: [sampleFile()], next: null }),
      [`GET /api/admin/ach/files/${FILE_ID}/download`]: () =>
        new Response(NACHA_TEXT, { status: 200, headers: { 'Content-Type': 'text/plain', 'Content-Disposition': 'attachment; filename="ach-20261125.txt"' } }),
    });
    renderAudit('/audit/ach');
    await userEvent.click(await screen.findByRole('button', { name: /^Copy ?SHA-256/ }));
    expect(writeText).toHaveBeenCalledWith(SHA);
    expect(await screen.findByText('Copied')).toBeInTheDocument();

    const original = { create: URL.createObjectURL, revoke: URL.revokeObjectURL };
    URL.createObjectURL = vi.fn(() => 'blob:file');
    URL.revokeObjectURL = vi.fn();
    let savedAs = '';
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      savedAs = this.download;
    });
    try {
      await userEvent.click(screen.getByRole('button', { name: /^Download/ }));
      await waitFor(() => expect(click).toHaveBeenCalled());
      expect(savedAs).toBe('ach-20261125.txt');
      const [, init] = fetchMock.mock.calls.at(-1)!;
      expect(new Headers(init?.headers).get('Authorization')).toBe('Bearer test-token');
    } finally {
      click.mockRestore();
      URL.createObjectURL = original.create;
      URL.revokeObjectURL = original.revoke;
    }
  });
});

describe('Build file now (admins)', () => {
  it('builds a file (201): says what it holds, links to it and reloads the list', { timeout: 20_000 }, async () => {
    let built = false;
    const { calls } = mockApi({
      [FILES]: () => json(200, { data: built ? [sampleFile()] : [], next: null }),
      'POST /api/admin/ach/files': () => {
        built = true;
        return json(201, { data: sampleFileDetail() });
      },
    });
    renderAudit('/audit/ach', admin);
    expect(await screen.findByText('No ACH file has been built yet.')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Build file now' }));
    const notice = await screen.findByText(/Built a file of 2 entries effective 2026-11-27/);
    expect(notice).toHaveTextContent('debits $0.00, credits $1,234.56');
    expect(within(notice).getByRole('link', { name: 'Open the file' })).toHaveAttribute('href', `/audit/ach/files/${FILE_ID}`);
    expect(await screen.findByRole('table', { name: '1 file' })).toBeInTheDocument();
    expect(calls.filter((call) => call.pathname === '/api/admin/ach/files')).toHaveLength(3);
  });

  it('shows "No entries waiting" (200, data null) as a calm notice, not an error, and reloads the list (a cut-off may just have built one)', async () => {
    let cutOff = false;
    const { calls } = mockApi({
      [FILES]: () => json(200, { data: cutOff ? [sampleFile()] : [], next: null }),
      'POST /api/admin/ach/files': () => {
        cutOff = true;
        return json(200, { data: null, message: 'No entries waiting' });
      },
    });
    renderAudit('/audit/ach', admin);
    await userEvent.click(await screen.findByRole('button', { name: 'Build file now' }));
    const notice = await screen.findByText('No entries waiting');
    expect(notice.closest('[role="status"]')).not.toBeNull();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(await screen.findByRole('table', { name: '1 file' })).toBeInTheDocument();
    expect(calls.filter((call) => call.pathname === '/api/admin/ach/files')).toHaveLength(3);
  });

  it("shows the server's refusal", async () => {
    mockApi({ [FILES]: () => json(200, { data: [], next: null }), 'POST /api/admin/ach/files': () => json(403, { message: 'Forbidden' }) });
    renderAudit('/audit/ach', admin);
    await userEvent.click(await screen.findByRole('button', { name: 'Build file now' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Forbidden');
  });
});

describe("a file's page (/audit/ach/files/:id)", () => {
  it('shows the fields, the whole hash, the download and every entry with its code in words and its transfer', async () => {
    mockApi({ [`GET /api/admin/ach/files/${FILE_ID}`]: () => json(200, { data: sampleFileDetail() }) });
    renderAudit(`/audit/ach/files/${FILE_ID}`);
    expect(await screen.findByRole('heading', { name: 'File effective 2026-11-27' })).toBeInTheDocument();
    expect(screen.getByText(SHA)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: /^Download/ })).toBeInTheDocument();
    const table = screen.getByRole('table', { name: '2 entries, in file order' });
    const [, first, second] = within(table).getAllByRole('row');
    expect(first).toHaveTextContent('102000020000041');
    expect(first).toHaveTextContent('22 Checking credit');
    expect(first).toHaveTextContent('021000021');
    expect(first).toHaveTextContent('4000123456');
    expect(first).toHaveTextContent('$1,234.50');
    expect(first).toHaveTextContent(TRANSFER);
    expect(second).toHaveTextContent('21 Checking credit return');
    expect(second).toHaveTextContent('$0.06');
    expect(second).toHaveTextContent(`Return ${RETURN_ID}`);
    expect(screen.getByRole('link', { name: '← All files' })).toHaveAttribute('href', '/audit/ach');
  });

  it('names an unknown file', async () => {
    mockApi({});
    renderAudit('/audit/ach/files/nope');
    expect(await screen.findByRole('alert')).toHaveTextContent('No ACH file with the id “nope”.');
  });
});

describe('uploading returns and incoming files (/audit/ach/upload)', () => {
  it('sends the pasted returns file as text/plain, as is, and shows applied, already applied and the unmatched with their reasons', { timeout: 20_000 }, async () => {
    const sent: { type: string | null; body: unknown }[] = [];
    mockApi({
      'POST /api/admin/ach/returns': (_url, init) => {
        sent.push({ type: new Headers(init?.headers).get('Content-Type'), body: init?.body });
        return json(200, { data: { applied: 2, alreadyApplied: 1, unmatched: [{ traceNumber: '102000029999999', reason: 'R03' }] } });
      },
    });
    renderAudit('/audit/ach/upload', admin);
    const form = await screen.findByRole('form', { name: 'Returns file' });
    await userEvent.click(within(form).getByLabelText("Or paste the file's text"));
    await userEvent.paste(NACHA_TEXT);
    await userEvent.click(within(form).getByRole('button', { name: 'Upload returns file' }));
    const result = await within(form).findByRole('region', { name: 'Result of the returns file' });
    expect(sent).toEqual([{ type: 'text/plain', body: NACHA_TEXT }]);
    expect(within(result).getByText('Applied').nextSibling).toHaveTextContent('2');
    expect(within(result).getByText('Already applied').nextSibling).toHaveTextContent('1');
    expect(within(result).getByText('Unmatched').nextSibling).toHaveTextContent('1');
    const row = within(result).getByRole('row', { name: /102000029999999/ });
    expect(row).toHaveTextContent('R03 No account/unable to locate account');
    expect(screen.getByRole('link', { name: 'Upload returns or incoming' })).toHaveAttribute('aria-current', 'page');
  });

  it('reads a chosen incoming file and shows credited, returned (with reasons) and already applied', { timeout: 20_000 }, async () => {
    const bodies: unknown[] = [];
    mockApi({
      'POST /api/admin/ach/incoming': (_url, init) => {
        bodies.push(init?.body);
        return json(200, { data: { credited: 3, returned: [{ traceNumber: '011000010000077', reason: 'R02' }], alreadyApplied: 0 } });
      },
    });
    renderAudit('/audit/ach/upload', admin);
    const form = await screen.findByRole('form', { name: 'Incoming file' });
    await userEvent.upload(within(form).getByLabelText('Choose a file'), new File([NACHA_TEXT], 'incoming.ach', { type: 'text/plain' }));
    expect(await within(form).findByText('From incoming.ach')).toBeInTheDocument();
    await userEvent.click(within(form).getByRole('button', { name: 'Upload incoming file' }));
    const result = await within(form).findByRole('region', { name: 'Result of the incoming file' });
    expect(bodies).toEqual([NACHA_TEXT]);
    expect(within(result).getByText('Credited').nextSibling).toHaveTextContent('3');
    expect(within(result).getByText('Returned').nextSibling).toHaveTextContent('1');
    expect(within(result).getByRole('row', { name: /011000010000077/ })).toHaveTextContent('R02 Account closed');
  });

  it("shows a refused file's message (it names the line) and that nothing was applied; an empty form sends nothing", { timeout: 20_000 }, async () => {
    const { calls } = mockApi({ 'POST /api/admin/ach/returns': () => json(400, { message: 'Line 3: Record length 93, not 94' }) });
    renderAudit('/audit/ach/upload', admin);
    const form = await screen.findByRole('form', { name: 'Returns file' });
    await userEvent.click(within(form).getByRole('button', { name: 'Upload returns file' }));
    expect(await within(form).findByText('Choose a file or paste its text')).toBeInTheDocument();
    expect(calls).toHaveLength(0);
    await userEvent.click(within(form).getByLabelText("Or paste the file's text"));
    await userEvent.paste('not a nacha file');
    await userEvent.click(within(form).getByRole('button', { name: 'Upload returns file' }));
    const alert = await within(form).findByRole('alert');
    expect(alert).toHaveTextContent('Line 3: Record length 93, not 94');
    expect(alert).toHaveTextContent('Nothing in this file was applied.');
  });

  it('is for admins only: an auditor is told so and offered no upload', async () => {
    mockApi({});
    renderAudit('/audit/ach/upload');
    expect(await screen.findByText('Only admins can upload ACH files.')).toBeInTheDocument();
    expect(screen.queryByRole('form')).not.toBeInTheDocument();
  });
});
