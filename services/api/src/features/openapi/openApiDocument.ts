import { z } from 'zod';
import { apiShapes, type ShapeName } from './apiShapes';
import { routeCatalogue, type RouteDoc } from './routeCatalogue';

type JsonSchema = Record<string, unknown>;

const ref = (name: ShapeName): JsonSchema => ({ $ref: `#/components/schemas/${name}` });

function stripDialect(schema: JsonSchema): JsonSchema {
  const { $schema: _dialect, ...rest } = schema;
  return rest;
}

/**
 * A request schema from the domain's zod input, as clients send it (`io: 'input'`). Fields the domain pre-processes
 * (blank → missing, numbers → text) are shown by the schema they are then checked against.
 */
export function requestJsonSchema(schema: z.ZodType): JsonSchema {
  return stripDialect(
    z.toJSONSchema(schema, {
      io: 'input',
      unrepresentable: 'any',
      override: (ctx) => {
        const def = (ctx.zodSchema as unknown as { _zod: { def: { type: string; in?: { _zod: { def: { type: string } } }; out?: z.ZodType } } })._zod.def;
        if (def.type === 'pipe' && def.in?._zod.def.type === 'transform' && def.out) {
          Object.assign(ctx.jsonSchema, stripDialect(z.toJSONSchema(def.out, { io: 'input', unrepresentable: 'any' }) as JsonSchema));
        }
      },
    }) as JsonSchema,
  );
}

function successSchema(route: RouteDoc): JsonSchema | undefined {
  const { success } = route;
  if (success.contentType) return undefined;
  if (success.body) return ref(success.body);
  if (success.signIn) {
    const signedIn: JsonSchema = { type: 'object', required: ['message', 'token', 'user'], properties: { message: { type: 'string' }, token: { type: 'string' }, user: ref('User') } };
    if (success.signIn === 'secondFactor') {
      (signedIn.properties as JsonSchema).recoveryCodes = { type: 'array', items: { type: 'string' }, description: 'Ten, shown once: only when the sign-in completed an enrolment' };
      (signedIn.properties as JsonSchema).recoveryCodesLeft = { type: 'integer', description: 'Only after signing in with a recovery code' };
      return signedIn;
    }
    return { oneOf: [signedIn, ref('SecondFactorChallenge')] };
  }
  const properties: JsonSchema = {};
  const required: string[] = [];
  if (success.message) {
    properties.message = { type: 'string' };
    required.push('message');
  }
  if (success.data) {
    properties.data = success.data.list ? { type: 'array', items: ref(success.data.shape) } : ref(success.data.shape);
    required.push('data');
    if (success.data.paged) {
      properties.next = {
        type: ['string', 'null'],
        description: 'Opaque cursor of the next page (pass it back as ?cursor=); null on the last page. See docs/api.md, "Paged lists".',
      };
      required.push('next');
    }
  }
  if (!success.message && !success.data) properties.data = { type: 'object' };
  return { type: 'object', properties, ...(required.length ? { required } : {}) };
}

const errorDescriptions: Record<number, string> = {
  400: 'Malformed or invalid input (zod issues in `errors`)',
  401: 'No or bad token, wrong credentials',
  403: 'Signed in but not allowed',
  404: 'Unknown resource',
  409: 'Conflict (e-mail or account number taken, concurrent change)',
  413: 'Body too large (45 MB)',
  415: 'Body is not JSON',
  422: 'A business rule refused the command',
  429: 'Rate limited (see Retry-After)',
  500: 'A fault on our side (generic message and request id)',
  503: 'Not ready',
};

/** `Error401`: the name of the shared error answer of a status (components.responses). */
function errorResponseName(status: number): string {
  return `Error${status}`;
}

/** The error answers every operation refers to: `{message, errors?}` with what the status means. */
function errorResponses(): Record<string, JsonSchema> {
  const responses: Record<string, JsonSchema> = {};
  for (const [status, description] of Object.entries(errorDescriptions)) {
    responses[errorResponseName(Number(status))] = {
      description,
      content: { 'application/json': { schema: ref('Error') } },
      ...(status === '429' ? { headers: { 'Retry-After': { schema: { type: 'integer' } } } } : {}),
    };
  }
  return responses;
}

const sharedParameters: Record<string, JsonSchema> = {
  IdempotencyKey: { name: 'Idempotency-Key', in: 'header', required: false, description: 'Same key within 24 h: the first answer, nothing appended again', schema: { type: 'string' } },
  ConsistentPosition: {
    name: 'X-Consistent-Position',
    in: 'header',
    required: false,
    description: 'Wait (up to 2 s) until this X-Event-Position is in the read models',
    schema: { type: 'string' },
  },
};

function operation(route: RouteDoc): JsonSchema {
  const responses: Record<string, JsonSchema> = {};
  const body = successSchema(route);
  responses[String(route.success.status)] = {
    description: route.success.description,
    ...(route.command ? { headers: { 'X-Event-Position': { description: 'Position of the last event appended', schema: { type: 'string' } } } } : {}),
    content: body ? { 'application/json': { schema: body } } : { [route.success.contentType ?? 'application/octet-stream']: {} },
  };
  const statuses = new Set(route.errors ?? []);
  if (route.access !== 'public') {
    statuses.add(401);
    if (route.access.length < 3) statuses.add(403);
  }
  if (route.body) {
    statuses.add(400);
    statuses.add(413);
    statuses.add(415);
  }
  statuses.add(500);
  for (const status of [...statuses].sort()) responses[String(status)] = { $ref: `#/components/responses/${errorResponseName(status)}` };
  const parameters: JsonSchema[] = [];
  for (const match of route.path.matchAll(/:(\w+)/g)) parameters.push({ name: match[1], in: 'path', required: true, schema: { type: 'string' } });
  for (const [name, description] of Object.entries(route.query ?? {})) parameters.push({ name, in: 'query', required: false, description, schema: { type: 'string' } });
  if (route.command) parameters.push({ $ref: '#/components/parameters/IdempotencyKey' });
  if (route.method === 'get') parameters.push({ $ref: '#/components/parameters/ConsistentPosition' });
  return {
    summary: route.summary,
    ...(route.access === 'public' ? { security: [] } : { security: [{ bearer: [] }], 'x-roles': route.access }),
    ...(parameters.length ? { parameters } : {}),
    ...(route.body ? { requestBody: { required: true, content: { 'application/json': { schema: requestJsonSchema(route.body) } } } } : {}),
    responses,
  };
}

/** The express path `/user/admin/:id` as OpenAPI writes it: `/user/admin/{id}`. */
export function openApiPath(path: string): string {
  return path.replace(/:(\w+)/g, '{$1}');
}

/** components.schemas: each named shape, a shape that holds another named one referring to it ($ref). */
function namedSchemas(): Record<string, JsonSchema> {
  const registry = z.registry<{ id: string }>();
  for (const [name, shape] of Object.entries(apiShapes)) registry.add(shape, { id: name });
  const { schemas } = z.toJSONSchema(registry, { io: 'output', unrepresentable: 'any', uri: (id) => `#/components/schemas/${id}` });
  return Object.fromEntries(Object.entries(schemas).map(([name, schema]) => {
    const { $id: _id, ...rest } = stripDialect(schema as JsonSchema);
    return [name, rest];
  }));
}

/** The OpenAPI 3.1 document of /api, built from the route catalogue and the zod schemas (GET /api/openapi.json). */
export function buildOpenApiDocument(routes: readonly RouteDoc[] = routeCatalogue): JsonSchema {
  const paths: Record<string, Record<string, JsonSchema>> = {};
  for (const route of routes) (paths[openApiPath(route.path)] ??= {})[route.method] = operation(route);
  const schemas = namedSchemas();
  return {
    openapi: '3.1.0',
    info: { title: 'Bank API', version: '1.0.0', description: 'The HTTP contract of /api (design/API.md); see docs/api.md for examples.' },
    servers: [{ url: '/api' }],
    components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } }, schemas, responses: errorResponses(), parameters: sharedParameters },
    security: [{ bearer: [] }],
    paths,
  };
}
