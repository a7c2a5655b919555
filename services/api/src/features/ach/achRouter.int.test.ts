import { readAchCycle, writeReturnsFile } from '@bank/ach';
import { writeNachaFile } from '@bank/domain';
import { waitUntil } from '@bank/testkit';
import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SignedIn } from '../../testing/testApp';
import { createLedgerTestApp, EXTERNAL_ROUTING_NUMBER, TEST_PIN, type LedgerTestApp } from '../ledger/testing/ledgerTestApp';
import { achFileDetailShape, achFileShape } from './achShapes';

/**
 * The ACH routes over HTTP on the whole bank (projector and worker running): a file built on the admin's request,
 * listed, read and downloaded as built; a returns file refused whole when malformed, applied once; an incoming
 * credit to a customer.
 */
let t: LedgerTestApp;
let admin: SignedIn;
let auditor: SignedIn;
let alice: SignedIn;

beforeAll(async () => {
  // The worker's own look for files to transmit is kept out of the way (an hour): a file is transmitted at once only
  // because POST /admin/ach/files queued its job.
  t = await createLedgerTestApp('ach_routes', { achPollEveryMs: 3_600_000 });
  [admin, auditor] = [await t.staff('admin'), await t.staff('auditor')];
  alice = await t.fundedCustomer(admin, 500);
}, 120_000);

afterAll(async () => {
  await t?.close();
});

describe('the ACH routes', () => {
  let fileId: string;
  let text: string;

  it('POST /admin/ach/files: 200 with nothing waiting, then 201 with the file of the waiting transfer', async () => {
    expect((await request(t.app).post('/api/admin/ach/files').set(admin.auth).expect(200)).body).toEqual({ data: null, message: 'No entries waiting' });
    const sent = await request(t.app)
      .post('/api/transaction/transfer')
      .set(alice.auth)
      .send({ from: 'savings', accountType: 'checking', bankName: 'Other Bank', routingNumber: EXTERNAL_ROUTING_NUMBER, accountNumber: '4000123456', to: 'Grace Hopper', description: '', paymentPin: TEST_PIN, amount: 123.45 })
      .expect(201);
    const transferId = sent.body.data.transferId as string;
    await waitUntil(async () => readAchCycle(t.worker.achCycle, (state) => state.waiting.has(transferId)), { what: 'the transfer queued' });
    const built = await request(t.app).post('/api/admin/ach/files').set(admin.auth).expect(201);
    const file = achFileDetailShape.parse(built.body.data);
    expect(file).toMatchObject({ entryCount: 1, totalDebit: 0, totalCredit: 123.45, status: 'created' });
    expect(file.entries).toEqual([{ traceNumber: expect.stringMatching(/^10200002\d{7}$/), transferId, amount: 123.45, routingNumber: EXTERNAL_ROUTING_NUMBER, accountNumber: '4000123456', name: 'Grace Hopper', transactionCode: 22 }]);
    fileId = file.id;
    // Then transmitted by the worker at once (no cut-off, no tick): the embedded transport's outbox holds it as built.
    await waitUntil(async () => (await request(t.app).get(`/api/admin/ach/files/${fileId}`).set(admin.auth)).body.data?.status === 'transmitted', { what: 'the file transmitted' });
    const outbox = await readdir(path.join(t.achDir, 'outbox'));
    expect(outbox).toHaveLength(1);
    const sha256 = createHash('sha256').update(await readFile(path.join(t.achDir, 'outbox', outbox[0]!))).digest('hex');
    expect(sha256).toBe(file.sha256);
  });

  it('GET /admin/ach/files (paged), /:id and /:id/download for admins and auditors', async () => {
    const list = await request(t.app).get('/api/admin/ach/files').query({ limit: 1 }).set(auditor.auth).expect(200);
    expect(list.body.data.map((row: unknown) => achFileShape.parse(row).id)).toEqual([fileId]);
    expect(list.body.next).toBeNull();
    await request(t.app).get('/api/admin/ach/files').query({ cursor: 'e30' }).set(auditor.auth).expect(400);
    const one = await request(t.app).get(`/api/admin/ach/files/${fileId}`).set(auditor.auth).expect(200);
    expect(one.body.data.id).toBe(fileId);
    const download = await request(t.app).get(`/api/admin/ach/files/${fileId}/download`).set(admin.auth).expect(200);
    expect(download.headers['content-type']).toBe('text/plain; charset=utf-8');
    text = download.text;
    expect(text.split('\n').filter(Boolean).every((line) => line.length === 94)).toBe(true);
    expect(text.split('\n').filter(Boolean)).toHaveLength(10);
    const { createHash } = await import('node:crypto');
    expect(createHash('sha256').update(text).digest('hex')).toBe(one.body.data.sha256);
    await request(t.app).get('/api/admin/ach/files/00000000-0000-4000-8000-000000000000').set(admin.auth).expect(404);
    await request(t.app).get('/api/admin/ach/files/not-an-id/download').set(admin.auth).expect(404);
  });

  it('POST /admin/ach/returns: a malformed file is 400 naming the line, nothing applied; then applied once', async () => {
    const returns = writeReturnsFile({ outbound: text, accountNumbers: ['4000123456'], reasonCode: 'R01', createdAt: new Date().toISOString() }).text;
    const broken = returns.split('\n');
    broken[3] = broken[3]!.replace('R01', 'R9X');
    const refused = await request(t.app).post('/api/admin/ach/returns').set(admin.auth).type('text/plain').send(broken.join('\n')).expect(400);
    expect(refused.body.message).toMatch(/^Line 4: /);
    await request(t.app).post('/api/admin/ach/returns').set(admin.auth).send({ not: 'a file' }).expect(400);
    const applied = await request(t.app).post('/api/admin/ach/returns').set(admin.auth).type('text/plain').send(returns).expect(200);
    expect(applied.body).toEqual({ data: { applied: 1, alreadyApplied: 0, unmatched: [] } });
    const again = await request(t.app).post('/api/admin/ach/returns').set(admin.auth).type('text/plain').send(returns).expect(200);
    expect(again.body).toEqual({ data: { applied: 0, alreadyApplied: 1, unmatched: [] } });
    const refund = async () =>
      ((await request(t.app).get(`/api/transaction/admin/${alice.userId}`).set(admin.auth).expect(200)).body.data as { description: string; amount: number; transactionType: string }[]).find(
        (tx) => tx.transactionType === 'credit' && tx.description === 'Returned: R01 Insufficient funds',
      );
    await waitUntil(async () => (await refund()) !== undefined, { what: 'the refund in the read model' });
    expect(await refund()).toMatchObject({ amount: 123.45 });
  });

  it('POST /admin/ach/incoming: a credit to the customer by account number, once', async () => {
    const incoming = writeNachaFile({
      header: { immediateDestination: '102000021', immediateOrigin: '011000015', creationDate: '2026-11-26', creationTime: '0800', fileIdModifier: 'A', immediateDestinationName: 'Summit Bank', immediateOriginName: 'Fed', referenceCode: '' },
      batches: [
        {
          header: { companyName: 'Payroll Inc', companyDiscretionaryData: '', companyIdentification: '1234567890', secCode: 'PPD', companyEntryDescription: 'PAYROLL', companyDescriptiveDate: '', effectiveEntryDate: '2026-11-26', settlementDate: '', originatorStatusCode: '1', odfiIdentification: '01100001' },
          entries: [{ transactionCode: 32, rdfiRoutingNumber: '102000021', accountNumber: alice.accountNumber, amountCents: 1_000_00, individualIdentification: 'PAY1', individualName: 'Alice', discretionaryData: '', traceNumber: '011000010000901' }],
        },
      ],
    });
    const res = await request(t.app).post('/api/admin/ach/incoming').set(admin.auth).type('text/plain').send(incoming).expect(200);
    expect(res.body).toEqual({ data: { credited: 1, returned: [], alreadyApplied: 0 } });
    expect((await request(t.app).post('/api/admin/ach/incoming').set(admin.auth).type('text/plain').send(incoming).expect(200)).body.data).toMatchObject({ credited: 0, alreadyApplied: 1 });
    const credit = async () =>
      ((await request(t.app).get(`/api/transaction/admin/${alice.userId}`).set(admin.auth).expect(200)).body.data as { description: string; amount: number }[]).find(
        (tx) => tx.description === 'ACH credit: Payroll Inc',
      );
    await waitUntil(async () => (await credit()) !== undefined, { what: 'the credit in the read model' });
    expect(await credit()).toMatchObject({ amount: 1000 });
  });
});
