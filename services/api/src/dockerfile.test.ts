import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const dockerfile = readFileSync(path.join(root, 'Dockerfile'), 'utf8');
const manifest = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { workspaces: string[]; scripts: Record<string, string> };

describe('Dockerfile', () => {
  it("copies every workspace's package.json before npm ci, and nothing that is not a workspace", () => {
    const copied = [...dockerfile.matchAll(/^COPY (\S+)\/package\.json \1\/$/gm)].map(([, workspace]) => workspace);
    expect(new Set(copied)).toEqual(new Set(manifest.workspaces));
    expect(dockerfile.indexOf('RUN npm ci')).toBeGreaterThan(dockerfile.lastIndexOf('/package.json'));
  });

  it('starts the file npm start starts, with the same node flags', () => {
    const cmd = /^CMD (\[.*\])$/m.exec(dockerfile);
    expect(cmd).not.toBeNull();
    const argv = JSON.parse(cmd![1]!) as string[];
    const script = argv.at(-1)!;
    expect(existsSync(path.join(root, script))).toBe(true);
    expect(manifest.scripts.start).toContain(`node ${argv.slice(1).join(' ')}`);
  });
});
