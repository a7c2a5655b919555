import path from 'node:path';
import { fileURLToPath } from 'node:url';
import openapiTS, { astToString, type OpenAPI3 } from 'openapi-typescript';
import { buildOpenApiDocument } from './openApiDocument';

/** Where the web app's generated API types live (committed; `npm run api:types` writes them). */
export const webApiTypesFile = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../../web/src/lib/api/openApiTypes.ts');

const header = `/**
 * Generated from the API's OpenAPI document (services/api/src/features/openapi) by openapi-typescript:
 * do not edit; run \`npm run api:types\` after changing a route or a shape (a test fails while this file is stale).
 */
`;

interface ObjectSchema {
  readonly type?: unknown;
  readonly properties?: Record<string, unknown>;
  readonly required?: readonly string[];
  readonly [key: string]: unknown;
}

/** `AdminUser` is `User` and more: typed `User & {cardRequests}` rather than every field of User written again. */
function asExtensions(schemas: Record<string, ObjectSchema>): Record<string, unknown> {
  const extended: Record<string, unknown> = { ...schemas };
  for (const [name, schema] of Object.entries(schemas)) {
    const base = Object.entries(schemas).find(([other, candidate]) => other !== name && isExtensionOf(schema, candidate));
    if (!base || !schema.properties) continue;
    const baseProperties = base[1].properties ?? {};
    const extra = Object.fromEntries(Object.entries(schema.properties).filter(([key]) => !(key in baseProperties)));
    const required = (schema.required ?? []).filter((key) => key in extra);
    extended[name] = { allOf: [{ $ref: `#/components/schemas/${base[0]}` }, { type: 'object', properties: extra, ...(required.length ? { required } : {}), additionalProperties: false }] };
  }
  return extended;
}

/** `schema` has every property of `base`, the same, and more of its own (object shapes only). */
function isExtensionOf(schema: ObjectSchema, base: ObjectSchema): boolean {
  if (schema.type !== 'object' || base.type !== 'object' || !schema.properties || !base.properties) return false;
  const baseKeys = Object.keys(base.properties);
  if (baseKeys.length === 0 || baseKeys.length >= Object.keys(schema.properties).length) return false;
  return baseKeys.every((key) => JSON.stringify(schema.properties?.[key]) === JSON.stringify(base.properties?.[key]) && (base.required ?? []).includes(key) === (schema.required ?? []).includes(key));
}

/**
 * The TypeScript text of the web app's API types: the named shapes (components.schemas) of the document
 * GET /api/openapi.json serves. The paths are left out: the web calls the API through its own client, and their
 * types would be thousands of generated lines, each route's the same but for its name.
 */
export async function webApiTypesSource(): Promise<string> {
  const { components } = buildOpenApiDocument() as { components: { schemas: Record<string, ObjectSchema> } };
  const document = { openapi: '3.1.0', info: { title: 'Bank API', version: '1.0.0' }, paths: {}, components: { schemas: asExtensions(components.schemas) } };
  const ast = await openapiTS(document as unknown as OpenAPI3, { alphabetize: true });
  return header + astToString(ast);
}
