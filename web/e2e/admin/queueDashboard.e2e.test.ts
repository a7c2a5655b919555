import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, newPage, screenshot, type E2eBrowser, type TrackedPage } from '../harness/browser';
import { adminLogin } from './adminSteps';

/**
 * The queue dashboard from the admin UI, in Chromium against the real server: the dashboard page's link opens a
 * dashboard session (an HttpOnly cookie scoped to /api/admin/queues) and the BullMQ board loads with it.
 */
describe('the queue dashboard from the admin dashboard', () => {
  let e2e: E2eBrowser;
  let tracked: TrackedPage;

  beforeAll(async () => {
    e2e = await launchBrowser();
    tracked = await newPage(e2e);
  });

  afterAll(async () => {
    await tracked?.context.close();
    await e2e?.close();
  });

  it('opens the BullMQ board with a cookie the page scripts cannot read, and no token in the URL', async () => {
    const { page, context } = tracked;
    // Before: the board refuses the browser.
    const refused = await page.request.get('/api/admin/queues/api/queues');
    expect(refused.status()).toBe(401);
    await adminLogin(page);
    await page.getByRole('main').getByRole('link', { name: 'Queue dashboard' }).click();
    await page.waitForURL((url) => url.pathname === '/api/admin/queues', { timeout: 15_000 });
    expect(page.url()).not.toMatch(/token=/);
    await page.getByText('maintenance').first().waitFor({ timeout: 15_000 });
    await screenshot(page, 'admin-queue-dashboard');
    const [cookie] = (await context.cookies()).filter((entry) => entry.name === 'bank_queues');
    expect(cookie).toMatchObject({ path: '/api/admin/queues', httpOnly: true, sameSite: 'Strict' });
    expect(cookie!.expires * 1000 - Date.now()).toBeLessThanOrEqual(600_000);
    expect(await page.evaluate(() => document.cookie)).not.toContain('bank_queues');
  });
});
