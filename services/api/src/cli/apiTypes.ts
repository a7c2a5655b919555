/**
 * npm run api:types — writes web/src/lib/api/openApiTypes.ts, the web app's API types, from the OpenAPI document
 * the API serves (no database needed). webApiTypes.test.ts fails while the committed file differs.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { webApiTypesFile, webApiTypesSource } from '../features/openapi/webApiTypes';

writeFileSync(webApiTypesFile, await webApiTypesSource());
console.log(`wrote ${path.relative(process.cwd(), webApiTypesFile)}`);
