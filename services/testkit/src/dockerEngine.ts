import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** Where testcontainers looks for a Docker engine (its strategies, in order), without loading testcontainers. */
export function dockerEndpointCandidates(env: NodeJS.ProcessEnv, home: string = os.homedir()): string[] {
  const candidates: string[] = [];
  if (env.DOCKER_HOST) candidates.push(`DOCKER_HOST=${env.DOCKER_HOST}`);
  const properties = path.join(home, '.testcontainers.properties');
  if (existsSync(properties)) candidates.push(properties);
  if (process.platform === 'win32') candidates.push('//./pipe/docker_engine');
  const sockets = [
    '/var/run/docker.sock',
    env.XDG_RUNTIME_DIR ? path.join(env.XDG_RUNTIME_DIR, 'docker.sock') : undefined,
    path.join(home, '.docker', 'run', 'docker.sock'),
    path.join(home, '.docker', 'desktop', 'docker.sock'),
    typeof process.getuid === 'function' ? path.join('/run', 'user', String(process.getuid()), 'docker.sock') : undefined,
  ];
  for (const socket of sockets) if (socket && existsSync(socket)) candidates.push(socket);
  return candidates;
}

export type DockerEngine = { readonly available: true } | { readonly available: false; readonly reason: string };

let probe: Promise<DockerEngine> | undefined;

/**
 * Whether testcontainers can reach a Docker engine. Where nothing points to one (no DOCKER_HOST, no
 * ~/.testcontainers.properties, no Docker socket), it answers at once without loading testcontainers (about a
 * second of imports); otherwise testcontainers' own discovery decides. A `docker` client binary alone is no engine.
 */
export function dockerEngine(env: NodeJS.ProcessEnv = process.env): Promise<DockerEngine> {
  probe ??= (async (): Promise<DockerEngine> => {
    const candidates = dockerEndpointCandidates(env);
    if (candidates.length === 0) {
      return { available: false, reason: 'no Docker engine was found (no DOCKER_HOST, no /var/run/docker.sock or rootless socket, no ~/.testcontainers.properties)' };
    }
    try {
      const { getContainerRuntimeClient } = await import('testcontainers');
      await getContainerRuntimeClient();
      return { available: true };
    } catch (error) {
      return { available: false, reason: `the Docker engine at ${candidates.join(', ')} did not answer (${error instanceof Error ? error.message : String(error)})` };
    }
  })();
  return probe;
}
