import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root (web/e2e/harness → ../../..). */
export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
export const webRoot = path.join(repoRoot, 'web');
/** Screenshots, server logs and other artifacts of e2e runs (gitignored). */
export const artifactsDir = path.join(repoRoot, 'artifacts');
