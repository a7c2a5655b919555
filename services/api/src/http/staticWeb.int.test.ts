import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import express from 'express';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HASHED_ASSET_CACHE, PAGE_CACHE, PUBLIC_FILE_CACHE, staticWeb } from './staticWeb';

/** A build as `npm run build -w web` lays it out: shell, public pages, hashed assets, each with .br and .gz copies. */
function writeBuild(dir: string): void {
  const files: Record<string, string> = {
    'index.html': '<!doctype html><title>shell</title>',
    'pages/index.html': '<!doctype html><title>home</title>',
    'pages/about/index.html': '<!doctype html><title>about</title>',
    'pages/account/savings/index.html': '<!doctype html><title>savings</title>',
    'assets/index-AbC123.js': `export const app = "${'x'.repeat(4000)}";`,
    'robots.txt': 'User-agent: *\nDisallow: /api\n',
  };
  for (const [name, content] of Object.entries(files)) {
    const file = path.join(dir, name);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, content);
    writeFileSync(`${file}.br`, brotliCompressSync(content));
    writeFileSync(`${file}.gz`, gzipSync(content));
  }
  writeFileSync(path.join(dir, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
}

/** The body as the client reads it (supertest undoes the Content-Encoding, as a browser does). */
const decode = (res: request.Response): string => (res.body as Buffer).toString();

const raw = (req: request.Test) => req.buffer(true).parse((res, done) => {
  const chunks: Buffer[] = [];
  res.on('data', (chunk: Buffer) => chunks.push(chunk));
  res.on('end', () => done(null, Buffer.concat(chunks)));
});

describe('staticWeb', () => {
  let dist: string;
  let app: express.Express;
  beforeAll(() => {
    dist = mkdtempSync(path.join(tmpdir(), 'bank-static-web-'));
    writeBuild(dist);
    app = express();
    app.use(staticWeb(dist));
  });
  afterAll(() => rmSync(dist, { recursive: true, force: true }));

  it('serves hashed assets for a year, immutable', async () => {
    const res = await raw(request(app).get('/assets/index-AbC123.js').set('Accept-Encoding', 'br, gzip'));
    expect(res.status).toBe(200);
    expect(res.headers['cache-control']).toBe(HASHED_ASSET_CACHE);
    expect(HASHED_ASSET_CACHE).toBe('public, max-age=31536000, immutable');
  });

  it('sends the brotli copy to a client that accepts it, gzip to one that accepts only gzip, the file to others', async () => {
    const br = await raw(request(app).get('/assets/index-AbC123.js').set('Accept-Encoding', 'gzip, deflate, br'));
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['content-type']).toMatch(/javascript/);
    expect(br.headers.vary).toMatch(/Accept-Encoding/);
    expect(decode(br)).toContain('export const app');

    const gz = await raw(request(app).get('/assets/index-AbC123.js').set('Accept-Encoding', 'gzip'));
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(decode(gz)).toContain('export const app');

    const plain = await raw(request(app).get('/assets/index-AbC123.js').set('Accept-Encoding', 'identity'));
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(decode(plain)).toContain('export const app');
  });

  it('answers each public page with its own HTML, compressed and revalidated on every use (no-cache)', async () => {
    for (const [url, title] of [
      ['/', 'home'],
      ['/about', 'about'],
      ['/about/', 'about'],
      ['/account/savings', 'savings'],
    ] as const) {
      const res = await raw(request(app).get(url).set('Accept-Encoding', 'br'));
      expect(res.status, url).toBe(200);
      expect(res.headers['cache-control'], url).toBe(PAGE_CACHE);
      expect(PAGE_CACHE).toBe('no-cache');
      expect(res.headers['content-encoding'], url).toBe('br');
      expect(res.headers['content-type'], url).toMatch(/text\/html/);
      expect(decode(res), url).toContain(`<title>${title}</title>`);
    }
  });

  it('answers every other browser path with the app shell, no-cache (the client router shows the screen)', async () => {
    for (const url of ['/account/home', '/admin/users/42', '/no/such/page', '/about/..%2f..%2fetc', '/index.html']) {
      const res = await raw(request(app).get(url).set('Accept-Encoding', 'gzip'));
      expect(res.status, url).toBe(200);
      expect(res.headers['cache-control'], url).toBe(PAGE_CACHE);
      expect(decode(res), url).toContain('<title>shell</title>');
    }
  });

  it('serves the other public files for an hour, and leaves /api to the API', async () => {
    const robots = await raw(request(app).get('/robots.txt'));
    expect(robots.headers['cache-control']).toBe(PUBLIC_FILE_CACHE);
    expect(decode(robots)).toContain('Disallow: /api');
    const icon = await raw(request(app).get('/favicon.svg').set('Accept-Encoding', 'br'));
    expect(icon.headers['content-encoding']).toBeUndefined();
    expect(icon.headers['cache-control']).toBe(PUBLIC_FILE_CACHE);
    expect((await request(app).get('/api/nothing')).status).toBe(404);
  });

  it('answers a conditional request for a page with 304 once it is unchanged', async () => {
    const first = await raw(request(app).get('/about').set('Accept-Encoding', 'br'));
    const again = await request(app).get('/about').set('Accept-Encoding', 'br').set('If-None-Match', String(first.headers.etag));
    expect(again.status).toBe(304);
  });
});
