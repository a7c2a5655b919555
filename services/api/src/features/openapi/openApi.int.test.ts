import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { signupInput } from '@bank/domain';
import { createApiRouters } from '../../app';
import { zodIssues } from '../../http/errorHandler';
import { createTestApp, type SignedIn, type TestApp } from '../../testing/testApp';
import { userShape } from '../users/userShape';
import { requestJsonSchema } from './openApiDocument';
import { routeCatalogue } from './routeCatalogue';

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp('openapi');
});

afterAll(async () => {
  await t?.close();
});

interface Layer {
  readonly route?: { readonly path: string; readonly methods: Record<string, boolean> };
  readonly handle?: { readonly stack?: readonly Layer[] };
  readonly rawPath?: unknown;
}

/** Every `METHOD /path` an Express router serves, nested routers included. */
function routesOf(stack: readonly Layer[], prefix = ''): string[] {
  const routes: string[] = [];
  for (const layer of stack) {
    if (layer.route) {
      for (const method of Object.keys(layer.route.methods)) if (method !== '_all') routes.push(`${method.toUpperCase()} ${prefix}${layer.route.path}`.replace(/\/$/, ''));
    } else if (layer.handle?.stack) {
      const mount = typeof layer.rawPath === 'string' && layer.rawPath !== '/' ? layer.rawPath : '';
      routes.push(...routesOf(layer.handle.stack, `${prefix}${mount}`));
    }
  }
  return routes;
}

/** The caller a route's access lets in: a customer where customers may, else an admin, else an auditor. */
async function callerOf(route: (typeof routeCatalogue)[number], customer: SignedIn, staff: SignedIn): Promise<SignedIn | undefined> {
  if (route.access === 'public') return undefined;
  if (route.access.includes('customer')) return t.signIn(customer.email, customer.password);
  return t.newSession(staff, route.access.includes('admin') ? 'admin' : 'auditor');
}

describe('GET /openapi.json', () => {
  it('is an OpenAPI 3.1 document of every route', async () => {
    const res = await request(t.app).get('/api/openapi.json');
    expect(res.status).toBe(200);
    expect(res.body.openapi).toBe('3.1.0');
    expect(Object.keys(res.body.paths as object)).toEqual(expect.arrayContaining(['/auth/signup', '/user/admin/{id}', '/files/{id}', '/transaction/transfer']));
    expect(res.body.paths['/user/admin/{id}'].put.responses['422']).toBeDefined();
    expect(res.body.paths['/auth/signup'].post.security).toEqual([]);
  });

  it('documents exactly the routes the app serves', () => {
    const served = createApiRouters(t.deps)
      .flatMap((router) => routesOf((router as unknown as { stack: Layer[] }).stack))
      // /docs is the page that shows this document.
      .filter((route) => !route.split(' ')[1]?.startsWith('/docs'))
      .sort();
    const documented = routeCatalogue.map((route) => `${route.method.toUpperCase()} ${route.path}`).sort();
    expect(served).toEqual(documented);
  });

  it('is browsable at /api/docs: a page of our own with Swagger UI from the package, no inline script, its assets cached', async () => {
    const page = await request(t.app).get('/api/docs').expect(200);
    expect(page.type).toBe('text/html');
    expect(page.text).toContain('<div id="swagger-ui"></div>');
    expect(page.text).not.toMatch(/<script>(?!<\/script>)/);
    for (const src of [...page.text.matchAll(/(?:src|href)="(\/api\/docs\/[^"]+)"/g)].map((match) => match[1]!)) {
      const asset = await request(t.app).get(src).expect(200);
      expect(asset.body.length ?? asset.text.length).toBeGreaterThan(0);
    }
    const start = await request(t.app).get('/api/docs/start.js').expect(200);
    expect(start.text).toContain("url: '/api/openapi.json'");
    const bundle = await request(t.app).get('/api/docs/swagger-ui-bundle.js').expect(200);
    expect(bundle.headers['cache-control']).toContain('max-age=86400');
    // Only the page's own assets: nothing else of the package (its sample index, source maps) is served.
    await request(t.app).get('/api/docs/index.html').expect(404);
    await request(t.app).get('/api/docs/swagger-ui-bundle.js.map').expect(404);
  });

  it('takes the request bodies from the domain zod schemas and the shapes from the ones the tests check answers with', async () => {
    const res = await request(t.app).get('/api/openapi.json');
    const signup = res.body.paths['/auth/signup'].post.requestBody.content['application/json'].schema;
    expect(signup).toEqual(requestJsonSchema(signupInput));
    expect(signup.required).toEqual(['firstName', 'lastName', 'email', 'phone', 'password', 'address', 'state']);
    const { $schema: _dialect, ...user } = z.toJSONSchema(userShape, { io: 'output', unrepresentable: 'any' }) as Record<string, unknown>;
    expect(res.body.components.schemas.User).toEqual(user);
    const pin = res.body.paths['/user/admin/{id}'].put.requestBody.content['application/json'].schema.properties.paymentPin;
    expect(pin).toMatchObject({ type: 'string', pattern: '^\\d{6}$' });
  });

  it('documents the request body each route validates with: an empty body is refused with the issues of that schema', async () => {
    const customer = await t.customer();
    const staff = await t.staff('admin');
    const checked: string[] = [];
    for (const route of routeCatalogue) {
      if (!route.body) continue;
      const documented = route.body.safeParse({});
      const caller = await callerOf(route, customer, staff);
      const url = `/api${route.path.replace(/:(\w+)/g, () => customer.userId)}`;
      const res = await request(t.app)[route.method](url).set(caller?.auth ?? {}).send({});
      const where = `${route.method.toUpperCase()} ${route.path}`;
      if (documented.success) expect(res.status, `${where}: {} fits the documented body`).not.toBe(400);
      else expect({ status: res.status, errors: res.body.errors }, where).toEqual({ status: 400, errors: zodIssues(documented.error) });
      checked.push(where);
    }
    expect(checked.length).toBeGreaterThan(20);
  });
});
