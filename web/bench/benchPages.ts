import { publicPages } from '../src/features/public/publicPages';

/** What `npm run bench:web` measures: every public page (the sitemap's) and the portal signed in. */
export interface BenchPage {
  /** Path on the server. */
  readonly path: string;
  /** Measured with a signed-in customer's session. */
  readonly signedIn?: boolean;
}

export const profiles = ['mobile', 'desktop'] as const;
export type Profile = (typeof profiles)[number];

/** The public pages (features/public/publicPages.ts), then the portal's home signed in. */
export const benchPages: readonly BenchPage[] = [...publicPages.map((page) => ({ path: page.path })), { path: '/account/home', signedIn: true }];
