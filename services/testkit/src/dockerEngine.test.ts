import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { dockerEndpointCandidates } from './dockerEngine';

describe('dockerEndpointCandidates', () => {
  const homes: string[] = [];
  const home = () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'bank-docker-home-'));
    homes.push(dir);
    return dir;
  };

  afterEach(() => {
    for (const dir of homes.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it('names DOCKER_HOST, a testcontainers configuration and the Docker Desktop and rootless sockets of the home', () => {
    const dir = home();
    writeFileSync(path.join(dir, '.testcontainers.properties'), 'docker.host=tcp://docker.test:2375\n');
    mkdirSync(path.join(dir, '.docker', 'run'), { recursive: true });
    writeFileSync(path.join(dir, '.docker', 'run', 'docker.sock'), '');
    const runtime = home();
    writeFileSync(path.join(runtime, 'docker.sock'), '');

    const candidates = dockerEndpointCandidates({ DOCKER_HOST: 'tcp://docker.test:2376', XDG_RUNTIME_DIR: runtime }, dir);

    expect(candidates).toEqual(
      expect.arrayContaining([
        'DOCKER_HOST=tcp://docker.test:2376',
        path.join(dir, '.testcontainers.properties'),
        path.join(dir, '.docker', 'run', 'docker.sock'),
        path.join(runtime, 'docker.sock'),
      ]),
    );
  });

  it('does not take a home without Docker files for an engine', () => {
    const dir = home();
    const candidates = dockerEndpointCandidates({}, dir);
    expect(candidates.filter((candidate) => candidate.startsWith(dir))).toEqual([]);
    expect(candidates.some((candidate) => candidate.startsWith('DOCKER_HOST'))).toBe(false);
  });
});
