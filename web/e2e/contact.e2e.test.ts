import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectNoConsoleErrors, launchBrowser, newPage, screenshot, viewports, type E2eBrowser } from './harness/browser';

const SUCCESS = 'Thank you! Your message has been sent. We will get back to you soon.';

describe('contact form', () => {
  let e2e: E2eBrowser;
  beforeAll(async () => {
    e2e = await launchBrowser();
  });
  afterAll(async () => {
    await e2e?.close();
  });

  it('checks the required fields in the browser without calling the API', async () => {
    const tracked = await newPage(e2e, { viewport: viewports.mobile });
    const { page } = tracked;
    const calls: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/api/')) calls.push(request.url());
    });
    await page.goto('/contact');
    await page.getByRole('button', { name: 'Send Message' }).click();
    for (const message of ['Name is required', 'Email is required', 'Message is required']) await page.getByText(message).waitFor();
    expect(calls).toEqual([]);
    expectNoConsoleErrors(tracked);
    await tracked.context.close();
  });

  it('sends a message to POST /api/contacts, clears the form and shows the success message for 3 seconds', async () => {
    const tracked = await newPage(e2e);
    const { page } = tracked;
    await page.goto('/contact');
    await page.getByLabel('Name *').fill('Grace Hopper');
    await page.getByLabel('Email *').fill('grace@example.com');
    await page.getByLabel('Phone (optional)').fill('+1 303 555 0199');
    await page.getByLabel('Subject (optional)').fill('Card');
    await page.getByLabel('Message *').fill('My card was swallowed by an ATM on Market Street.');

    const [request, response] = await Promise.all([
      page.waitForRequest((candidate) => candidate.url().endsWith('/api/contacts') && candidate.method() === 'POST'),
      page.waitForResponse((candidate) => candidate.url().endsWith('/api/contacts')),
      page.getByRole('button', { name: 'Send Message' }).click(),
    ]);
    expect(request.postDataJSON()).toEqual({
      name: 'Grace Hopper',
      email: 'grace@example.com',
      phone: '+1 303 555 0199',
      subject: 'Card',
      message: 'My card was swallowed by an ATM on Market Street.',
      website: '',
    });
    expect(response.status()).toBe(201);

    const success = page.getByText(SUCCESS);
    await success.waitFor();
    const shownAt = Date.now();
    await screenshot(page, 'contact-sent-1280');
    for (const label of ['Name *', 'Email *', 'Phone (optional)', 'Subject (optional)', 'Message *']) expect(await page.getByLabel(label).inputValue()).toBe('');
    await success.waitFor({ state: 'detached', timeout: 5000 });
    const shownFor = Date.now() - shownAt;
    expect(shownFor).toBeGreaterThan(2500);
    expect(shownFor).toBeLessThan(4500);
    expectNoConsoleErrors(tracked);
    await tracked.context.close();
  });

  it("shows the server's error, not the success message, when sending fails", async () => {
    const tracked = await newPage(e2e);
    const { page } = tracked;
    await page.route('**/api/contacts', (route) =>
      route.fulfill({ status: 429, contentType: 'application/json', headers: { 'Retry-After': '3600' }, body: JSON.stringify({ message: 'Too many messages, please try again later' }) }),
    );
    await page.goto('/contact');
    await page.getByLabel('Name *').fill('Grace Hopper');
    await page.getByLabel('Email *').fill('grace@example.com');
    await page.getByLabel('Message *').fill('Hello');
    await page.getByRole('button', { name: 'Send Message' }).click();
    const alert = page.getByRole('alert');
    await alert.waitFor();
    expect(await alert.textContent()).toContain('Too many messages, please try again later');
    expect(await page.getByText(SUCCESS).count()).toBe(0);
    expect(await page.getByLabel('Name *').inputValue()).toBe('Grace Hopper');
    // The browser logs the refused request itself; nothing else may be logged.
    expectNoConsoleErrors(tracked, [/status of 429/]);
    await tracked.context.close();
  });
});
