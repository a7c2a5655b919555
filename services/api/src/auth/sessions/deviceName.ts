import UAParser from 'ua-parser-js';

/** A person's name for the device behind a user agent: "Firefox on Linux", "Mobile Safari on iOS", "Unknown device". */
export function deviceName(userAgent: string | undefined): string {
  if (!userAgent) return 'Unknown device';
  const result = new UAParser(userAgent).getResult();
  const browser = result.browser.name;
  const os = result.os.name;
  if (browser && os) return `${browser} on ${os}`;
  if (browser) return browser;
  if (os) return `A program on ${os}`;
  // curl/8.5, python-requests/2.31 …: the product name says enough.
  const product = /^([A-Za-z][\w.-]{0,40})\//.exec(userAgent)?.[1];
  return product ?? 'Unknown device';
}
