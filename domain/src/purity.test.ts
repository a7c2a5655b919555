import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The domain does no I/O and stays browser-safe: its source (tests and the test-only testing/ folder excepted)
 * imports only relative modules and zod, and touches no Node globals.
 */
const root = import.meta.dirname;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'testing' ? [] : sourceFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

function importsOf(source: string): string[] {
  const specifiers: string[] = [];
  const patterns = [/\bimport\s+(?:type\s+)?[^'"]*?from\s*['"]([^'"]+)['"]/g, /\bexport\s+[^'"]*?from\s*['"]([^'"]+)['"]/g, /\bimport\s*['"]([^'"]+)['"]/g, /\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)/g, /\brequire\s*\(\s*['"]([^'"]+)['"]\s*\)/g];
  for (const pattern of patterns) for (const match of source.matchAll(pattern)) if (match[1]) specifiers.push(match[1]);
  return specifiers;
}

const files = sourceFiles(root);
const FORBIDDEN = /^(node:|fs$|fs\/|path$|net$|http$|https$|http2$|crypto$|child_process$|os$|process$|stream$|worker_threads$|dgram$|dns$|tls$|cluster$|pg$|pg-|ioredis$|redis$|express$|bullmq$|@eventstore\/)/;

describe('the domain package is pure', () => {
  it('has source files to check', () => {
    expect(files.length).toBeGreaterThan(20);
  });

  it.each(files.map((file) => [relative(root, file), file]))('%s imports only relative modules and zod', (_name, file) => {
    const imports = importsOf(readFileSync(file, 'utf8'));
    expect(imports.filter((specifier) => FORBIDDEN.test(specifier))).toEqual([]);
    expect(imports.filter((specifier) => !specifier.startsWith('.') && specifier !== 'zod')).toEqual([]);
    expect(imports.filter((specifier) => specifier.includes('testing/'))).toEqual([]);
  });

  it.each(files.map((file) => [relative(root, file), file]))('%s uses no Node globals', (_name, file) => {
    const code = readFileSync(file, 'utf8').replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, '');
    expect(code).not.toMatch(/\b(Buffer|process\.|__dirname|__filename|setTimeout|setInterval|Math\.random|crypto\.)/);
    expect(code).not.toMatch(/\bnew Date\(\)|Date\.now\(\)/);
  });

  it('recognises forbidden imports (self-check of the scanner)', () => {
    const sample = "import { readFile } from 'node:fs';\nimport type { Pool } from 'pg';\nexport * from './x';\nconst r = require('ioredis');";
    expect(importsOf(sample).filter((s) => FORBIDDEN.test(s))).toEqual(['node:fs', 'pg', 'ioredis']);
  });
});
