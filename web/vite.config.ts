/// <reference types="vitest/config" />
import path from 'node:path';
import { defineConfig, loadEnv } from 'vite';
import react from '@vitejs/plugin-react';
import { compression } from 'vite-plugin-compression2';
import { publicPagesPlugin } from './build/publicPagesPlugin';
import { DEFAULT_SITE_URL } from './src/features/public/publicPages';

const apiTarget = process.env.VITE_API_PROXY ?? 'http://127.0.0.1:3000';

/** The published origin (VITE_SITE_URL) for canonical links, Open Graph and the sitemap; checked once, here. */
function siteUrl(mode: string): string {
  const value = loadEnv(mode, import.meta.dirname, 'VITE_').VITE_SITE_URL || DEFAULT_SITE_URL;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new Error(`VITE_SITE_URL must be an absolute http(s) URL such as https://www.example.com, not "${value}"`);
  }
  if (!/^https?:$/.test(url.protocol) || url.pathname !== '/') throw new Error(`VITE_SITE_URL must be an origin such as https://www.example.com, not "${value}"`);
  return url.origin;
}

export default defineConfig(({ mode }) => {
  const site = siteUrl(mode);
  return {
    root: import.meta.dirname,
    plugins: [
      react(),
      publicPagesPlugin({ siteUrl: site, srcDir: path.join(import.meta.dirname, 'src') }),
      // Brotli and gzip copies of every text file, served by the API by Accept-Encoding (http/staticWeb.ts).
      compression({ algorithms: ['brotliCompress', 'gzip'], include: /\.(html|xml|css|js|mjs|json|svg|txt)$/, logLevel: 'silent' }),
    ],
    define: { 'import.meta.env.VITE_SITE_URL': JSON.stringify(site) },
    server: { proxy: { '/api': { target: apiTarget, changeOrigin: true } } },
    // No source maps in production: nothing to serve that could be stale or invalid.
    build: {
      outDir: 'dist',
      emptyOutDir: true,
      sourcemap: false,
      rolldownOptions: {
        // The domain package is pure (domain/src/purity.test.ts): what a form does not use of it (every other schema,
        // the events, the deciders) is left out of the chunk that carries the form's schema.
        treeshake: { moduleSideEffects: [{ test: /[\\/]domain[\\/]src[\\/]/, sideEffects: false }] },
        output: {
          // Fewer, larger shared chunks: each request costs a round trip and about 1 kB of response headers.
          codeSplitting: {
            groups: [
              {
                // What every screen runs on: React, the router, the API client and the session, the shared UI (its form parts
                // too: small, and a separate chunk would cost the home page a request).
                name: 'app',
                test: /rolldown[\\/]runtime|vite[\\/]preload-helper|node_modules[\\/](react|react-dom|scheduler|react-router)[\\/]|[\\/]web[\\/]src[\\/](lib[\\/](api[\\/]api|session[\\/]|routing[\\/])|components[\\/](PageTitle|Spinner|ButtonLink|Icon|Logo|bankDetails|money|Alert|Button|Field|fieldErrors|useTimedMessage)\.)|[\\/]domain[\\/]src[\\/]bank\./,
                priority: 2,
              },
              // The public pages' illustrations (small SVG components; the home page shows them all).
              { name: 'illustrations', test: /[\\/]features[\\/]public[\\/]components[\\/]illustrations[\\/]/, priority: 1 },
              // The sign-in and sign-up screens with what they run on (the query cache, the second step): one request
              // instead of a dozen small ones on a slow mobile network. No site page imports any of it.
              {
                name: 'auth',
                test: /node_modules[\\/]@tanstack[\\/]|[\\/]web[\\/]src[\\/](features[\\/](auth[\\/](?!routes\.tsx$|authSchemas\.ts$)|secondFactor[\\/])|app[\\/]QueryArea|lib[\\/]api[\\/](authApi|secondFactorApi))/,
                priority: 1,
              },
            ],
          },
        },
      },
    },
    test: {
      name: 'web',
      root: import.meta.dirname,
      include: ['src/**/*.test.{ts,tsx}', 'build/**/*.test.ts'],
      environment: 'jsdom',
      // The files of a worker share their modules (React, the router, the query client's code, the pages): each file
      // importing them again was most of the project's time (108 s → 49 s on a quiet 2-core host, 2 December). A test
      // replaces a module's export through a seam of its own (lib/browser/leaveAppFor.ts), never with vi.mock, which
      // the linter refuses here (FILES_THAT_REPLACE_MODULES in eslint.boundaries.js).
      isolate: false,
      setupFiles: ['./src/testing/setup.ts'],
      css: false,
      // A test's waits each take up to 10 s on a busy machine (src/testing/setup.ts), and a test may wait several
      // times: vitest's default of 5 s for the whole test failed screens that were only slow (CI runs this project
      // beside the browser journeys on two cores).
      testTimeout: 30_000,
    },
  };
});
