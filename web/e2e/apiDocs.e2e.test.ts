import { afterAll, beforeAll, describe, it } from 'vitest';
import { expectNoConsoleErrors, launchBrowser, newPage, screenshot, type E2eBrowser } from './harness/browser';

describe('the API reference at /api/docs', () => {
  let e2e: E2eBrowser;
  beforeAll(async () => {
    e2e = await launchBrowser();
  });
  afterAll(async () => {
    await e2e?.close();
  });

  it('shows the OpenAPI document in Swagger UI under the bank’s Content-Security-Policy, with no console error', async () => {
    const tracked = await newPage(e2e);
    const { page } = tracked;
    await page.goto('/api/docs');
    await page.getByRole('heading', { name: /Bank API/ }).waitFor({ timeout: 15_000 });
    // An operation opens with its request body taken from the domain's schema.
    await page.getByText('/auth/signin', { exact: true }).first().click();
    await page.getByText('Request body').first().waitFor();
    await screenshot(page, 'api-docs');
    expectNoConsoleErrors(tracked);
    await tracked.context.close();
  });
});
