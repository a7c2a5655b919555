import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { chownSync, closeSync, existsSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { freeTcpPort } from './privateServices';

const run = promisify(execFile);

/**
 * A highly available PostgreSQL of a test's own, with Debian's engines (never a home-made failover): etcd (the
 * consensus store), three PostgreSQL servers managed by Patroni (a primary and two synchronous standbys:
 * `synchronous_mode` with `synchronous_mode_strict` and `synchronous_node_count: 2`, so a commit is acknowledged only
 * once every standby streaming has it, and never with none), and HAProxy in front, routing one port to whichever node
 * Patroni's REST API calls the primary (`/primary`) and a second port to the standbys (`/replica`). Every process
 * runs from a temporary folder on free ports; `destroy()` ends them.
 *
 * `primary_start_timeout: 0` tells Patroni to fail over rather than restart a crashed primary in place: a SIGKILL of
 * the primary's postmaster promotes the synchronous standby furthest ahead, and the old primary rejoins as a standby
 * with `pg_rewind`.
 *
 * Why two standbys: in strict mode a primary with no standby streaming acknowledges nothing. With one standby, the
 * promoted standby's first commits waited for the old primary's rewind and restart (up to 9 s here idle, 15 s under
 * CI's load); with two, the one left behind (never ahead of the one promoted, which Patroni picks for having the most
 * WAL among the synchronous standbys) follows the new timeline without a rewind and acknowledges them at once.
 */
export interface HaNode {
  readonly name: string;
  readonly pgPort: number;
  readonly restPort: number;
  readonly dataDir: string;
}

export interface HaPostgres {
  /** The stable endpoint (HAProxy → the current primary), `postgres` database. */
  readonly url: string;
  databaseUrl(name: string): string;
  /** The standbys' endpoint (HAProxy → the nodes Patroni calls replicas). */
  databaseReadUrl(name: string): string;
  readonly nodes: readonly HaNode[];
  readonly dir: string;
  /** The node Patroni's REST API calls the primary now (undefined while none is). */
  primary(): Promise<HaNode | undefined>;
  /** Waits until a primary runs with every other node its synchronous standby, and the endpoint reaches it. */
  waitHealthy(timeoutMs?: number): Promise<HaNode>;
  /** SIGKILL of a node's postmaster (its backends exit with it). */
  killPostmaster(node: HaNode): Promise<void>;
  /** The node gone: SIGKILL of its Patroni, then of its postmaster (nothing restarts it). */
  stopNode(node: HaNode): Promise<void>;
  /** Its Patroni started again: it starts the node's PostgreSQL and rejoins the cluster. */
  startNode(node: HaNode): void;
  /** The node's server, reached directly (not through HAProxy). */
  directUrl(node: HaNode, database: string): string;
  destroy(): Promise<void>;
}

function postgresBinDir(): string {
  for (const version of ['17', '16', '15']) {
    const bin = `/usr/lib/postgresql/${version}/bin`;
    if (existsSync(path.join(bin, 'pg_ctl'))) return bin;
  }
  throw new Error('No PostgreSQL server binaries under /usr/lib/postgresql');
}

/** The engines this harness needs, each a Debian package (.ci/run installs them). */
export function missingHaTools(): string[] {
  const tools: Record<string, string> = { patroni: '/usr/bin/patroni', etcd: '/usr/bin/etcd', haproxy: '/usr/sbin/haproxy' };
  return Object.entries(tools).flatMap(([name, file]) => (existsSync(file) ? [] : [name]));
}

async function postgresIds(): Promise<{ uid: number; gid: number } | undefined> {
  if (userInfo().uid !== 0) return undefined;
  const [{ stdout: uid }, { stdout: gid }] = await Promise.all([run('id', ['-u', 'postgres']), run('id', ['-g', 'postgres'])]);
  return { uid: Number(uid.trim()), gid: Number(gid.trim()) };
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

async function httpStatus(url: string): Promise<number> {
  try {
    const answer = await fetch(url, { signal: AbortSignal.timeout(1_000) });
    await answer.body?.cancel();
    return answer.status;
  } catch {
    return 0;
  }
}

function patroniConfig(options: { scope: string; node: HaNode; etcdPort: number; dir: string; bin: string; applyDelayMs: number; standbys: number }): string {
  const { node } = options;
  // JSON is YAML: no YAML writer needed.
  return JSON.stringify({
    scope: options.scope,
    name: node.name,
    // INFO: the HA loop's decisions (why a crashed primary was restarted in place rather than failed over) are kept.
    log: { level: 'INFO' },
    restapi: { listen: `127.0.0.1:${node.restPort}`, connect_address: `127.0.0.1:${node.restPort}` },
    etcd3: { host: `127.0.0.1:${options.etcdPort}` },
    bootstrap: {
      dcs: {
        ttl: 20,
        loop_wait: 1,
        retry_timeout: 5,
        primary_start_timeout: 0,
        // In synchronous_mode_strict the synchronous standby holds every commit acknowledged; WAL it lacks is of
        // commits no client saw, so its lag says nothing about lost data. With a limit of 1 MB, a burst of WAL in the
        // second before a crash (page images after a checkpoint, a projector's batch) can make Patroni judge the
        // standby unfit and restart the primary in place: once in CI under load (1 December; the log kept no
        // reason at WARNING, which INFO above now keeps).
        maximum_lag_on_failover: 268435456,
        synchronous_mode: true,
        synchronous_mode_strict: true,
        // Every standby synchronous: on a failover Patroni promotes the one furthest ahead among them, so the other
        // is never ahead of the new primary and follows its timeline without a rewind.
        synchronous_node_count: options.standbys,
        postgresql: {
          use_pg_rewind: true,
          // No replication slots: Patroni 3.0 creates the members' slots on a new primary only in its first HA
          // cycle after the promotion, and a standby whose slot is missing cannot stream, so in strict mode no commit
          // was acknowledged until then (5.0 s to writes after a kill, against 3.6–4.2 s without). The WAL a standby
          // needs is kept by wal_keep_size instead; a standby behind that is copied afresh (patronictl reinit).
          use_slots: false,
          parameters: {
            max_connections: 200,
            max_wal_senders: 10,
            max_replication_slots: 10,
            wal_log_hints: 'on',
            hot_standby: 'on',
            synchronous_commit: 'on',
            // The disk is shared by every test on the machine: the faults here are processes and networks, not
            // power cuts, so the OS cache keeps what PostgreSQL wrote (replication is what is under test).
            fsync: 'off',
            full_page_writes: 'on',
            wal_keep_size: '256MB',
            // A standby whose upstream went away (a failover) tries its new one after this, not PostgreSQL's 5 s:
            // until a standby streams from the new primary, strict synchronous mode holds every commit.
            wal_retrieve_retry_interval: '500ms',
          },
        },
      },
      initdb: [{ encoding: 'UTF8' }, { 'auth-local': 'trust' }, { 'auth-host': 'trust' }, 'no-sync'],
    },
    postgresql: {
      listen: `127.0.0.1:${node.pgPort}`,
      connect_address: `127.0.0.1:${node.pgPort}`,
      data_dir: node.dataDir,
      bin_dir: options.bin,
      pgpass: path.join(options.dir, `${node.name}.pgpass`),
      authentication: {
        superuser: { username: 'postgres', password: 'postgres' },
        replication: { username: 'replicator', password: 'replicator' },
        rewind: { username: 'postgres', password: 'postgres' },
      },
      parameters: {
        unix_socket_directories: options.dir,
        ...(options.applyDelayMs > 0 ? { recovery_min_apply_delay: `${options.applyDelayMs}ms` } : {}),
      },
      pg_hba: ['local all all trust', 'host all all 127.0.0.1/32 trust', 'host replication all 127.0.0.1/32 trust'],
    },
  });
}

function haproxyConfig(options: { nodes: readonly HaNode[]; primaryPort: number; replicaPort: number }): string {
  const servers = (check: string) =>
    options.nodes.map((node) => `  server ${node.name} 127.0.0.1:${node.pgPort} check port ${node.restPort}`).join('\n') + `\n  option httpchk OPTIONS ${check}\n  http-check expect status 200\n`;
  return `global
  maxconn 2000
defaults
  mode tcp
  timeout connect 2s
  timeout client 30m
  timeout server 30m
  timeout check 1s
  default-server inter 500ms fastinter 250ms downinter 250ms fall 2 rise 1 on-marked-down shutdown-sessions
listen primary
  bind 127.0.0.1:${options.primaryPort}
${servers('/primary')}
listen replicas
  bind 127.0.0.1:${options.replicaPort}
${servers('/replica')}
`;
}

export async function startHaPostgres(options: { applyDelayMs?: number; standbys?: number } = {}): Promise<HaPostgres> {
  const missing = missingHaTools();
  if (missing.length) throw new Error(`The HA harness needs Debian's ${missing.join(', ')} (apt-get install -y patroni etcd-server haproxy; .ci/run installs them)`);
  const bin = postgresBinDir();
  const ids = await postgresIds();
  const dir = mkdtempSync(path.join(tmpdir(), 'bank-ha-'));
  if (ids) chownSync(dir, ids.uid, ids.gid);
  const standbys = options.standbys ?? 2;
  if (!Number.isInteger(standbys) || standbys < 1) throw new Error(`standbys must be a whole number from 1, not ${standbys}`);
  const ports = await Promise.all(Array.from({ length: 4 + (standbys + 1) * 2 }, () => freeTcpPort()));
  const port = (i: number) => ports[i]!;
  const [etcdPort, etcdPeerPort, primaryPort, replicaPort] = [port(0), port(1), port(2), port(3)];
  const nodes: HaNode[] = Array.from({ length: standbys + 1 }, (_, i) => ({ name: `node${i + 1}`, pgPort: port(4 + i * 2), restPort: port(5 + i * 2), dataDir: path.join(dir, `node${i + 1}`) }));
  const children: ChildProcess[] = [];
  const logFd = (name: string) => {
    const fd = openSync(path.join(dir, `${name}.log`), 'a');
    if (ids) chownSync(path.join(dir, `${name}.log`), ids.uid, ids.gid);
    return fd;
  };
  const launch = (name: string, command: string, args: string[], asPostgres: boolean) => {
    const fd = logFd(name);
    const child = spawn(command, args, { stdio: ['ignore', fd, fd], detached: true, cwd: dir, ...(asPostgres && ids ? { uid: ids.uid, gid: ids.gid } : {}), env: { ...process.env, HOME: dir } });
    closeSync(fd);
    child.on('error', () => undefined);
    children.push(child);
    return child;
  };
  const patronis = new Map<string, ChildProcess>();
  const startPatroni = (node: HaNode) => {
    patronis.set(node.name, launch(node.name, '/usr/bin/patroni', [path.join(dir, `${node.name}.yml`)], true));
  };
  const destroy = async () => {
    for (const child of children) {
      try {
        if (child.pid && child.exitCode === null) process.kill(-child.pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
    for (const node of nodes) await killPostmasterOf(node).catch(() => undefined);
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    const etcdData = path.join(dir, 'etcd');
    mkdirSync(etcdData);
    launch('etcd', '/usr/bin/etcd', [
      '--name', 'etcd1', '--data-dir', etcdData,
      '--listen-client-urls', `http://127.0.0.1:${etcdPort}`, '--advertise-client-urls', `http://127.0.0.1:${etcdPort}`,
      '--listen-peer-urls', `http://127.0.0.1:${etcdPeerPort}`, '--initial-advertise-peer-urls', `http://127.0.0.1:${etcdPeerPort}`,
      '--initial-cluster', `etcd1=http://127.0.0.1:${etcdPeerPort}`, '--unsafe-no-fsync', '--log-level', 'warn',
    ], false);
    const deadline = Date.now() + 30_000;
    while ((await httpStatus(`http://127.0.0.1:${etcdPort}/health`)) !== 200) {
      if (Date.now() > deadline) throw new Error(`etcd did not start (see ${dir}/etcd.log)`);
      await sleep(100);
    }
    const scope = `bank-ha-${path.basename(dir)}`;
    for (const node of nodes) {
      const file = path.join(dir, `${node.name}.yml`);
      writeFileSync(file, patroniConfig({ scope, node, etcdPort, dir, bin, standbys, applyDelayMs: node.name === 'node1' ? 0 : (options.applyDelayMs ?? 0) }));
      if (ids) chownSync(file, ids.uid, ids.gid);
    }
    // The first node bootstraps the cluster; the others copy it (pg_basebackup) once it is up.
    startPatroni(nodes[0]!);
    while ((await httpStatus(`http://127.0.0.1:${nodes[0]!.restPort}/primary`)) !== 200) {
      if (Date.now() > deadline + 30_000) throw new Error(`Patroni's first node did not become primary (see ${dir}/node1.log)`);
      await sleep(200);
    }
    for (const node of nodes.slice(1)) startPatroni(node);
    const haproxyFile = path.join(dir, 'haproxy.cfg');
    writeFileSync(haproxyFile, haproxyConfig({ nodes, primaryPort, replicaPort }));
    launch('haproxy', '/usr/sbin/haproxy', ['-db', '-f', haproxyFile], false);
  } catch (error) {
    await destroy();
    throw error;
  }

  const primary = async () => {
    for (const node of nodes) if ((await httpStatus(`http://127.0.0.1:${node.restPort}/primary`)) === 200) return node;
    return undefined;
  };
  const databaseUrl = (name: string) => `postgres://postgres@127.0.0.1:${primaryPort}/${name}`;
  const cluster: HaPostgres = {
    url: databaseUrl('postgres'),
    databaseUrl,
    databaseReadUrl: (name) => `postgres://postgres@127.0.0.1:${replicaPort}/${name}`,
    nodes,
    dir,
    primary,
    async waitHealthy(timeoutMs = 60_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const leader = await primary();
        if (leader && (await httpStatus(`http://127.0.0.1:${leader.restPort}/sync`)) !== 200) {
          const synchronous = await Promise.all(nodes.filter((node) => node !== leader).map(async (node) => (await httpStatus(`http://127.0.0.1:${node.restPort}/sync`)) === 200));
          if (synchronous.every(Boolean) && (await endpointAnswers(databaseUrl('postgres')))) return leader;
        }
        if (Date.now() > deadline) throw new Error(`The HA cluster did not become healthy in ${timeoutMs} ms (see ${dir})`);
        await sleep(200);
      }
    },
    killPostmaster: killPostmasterOf,
    async stopNode(node) {
      const patroni = patronis.get(node.name);
      if (patroni?.pid && patroni.exitCode === null && patroni.signalCode === null) {
        const exited = new Promise((resolve) => patroni.once('exit', resolve));
        process.kill(-patroni.pid, 'SIGKILL');
        await exited;
      }
      await killPostmasterOf(node);
    },
    startNode: startPatroni,
    directUrl: (node, database) => `postgres://postgres@127.0.0.1:${node.pgPort}/${database}`,
    destroy,
  };
  return cluster;
}

async function endpointAnswers(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 1_000 });
  client.on('error', () => undefined);
  try {
    await client.connect();
    const { rows } = await client.query<{ recovery: boolean }>('SELECT pg_is_in_recovery() AS recovery');
    return rows[0]?.recovery === false;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

async function killPostmasterOf(node: HaNode): Promise<void> {
  const pidFile = path.join(node.dataDir, 'postmaster.pid');
  if (!existsSync(pidFile)) return;
  const pid = Number(readFileSync(pidFile, 'utf8').split('\n')[0]);
  if (!Number.isInteger(pid) || pid <= 0) return;
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    // not running
  }
}
