import { execFile } from 'node:child_process';
import { randomInt } from 'node:crypto';
import { promisify } from 'node:util';
import { processAlive } from './processAlive';

const run = promisify(execFile);
const PREFIX = 'bankpart-';
const TABLE = 'blackhole';
/** The host's own nft tables of this helper: `bankpart_<pid>_<n>`. */
const HOST_TABLE_PREFIX = 'bankpart_';

/**
 * A network namespace of the bank's own, joined to the host by a veth pair: the bank runs in it (`prefix` before its
 * command), the host side's address is where the test's PostgreSQL and Redis listen, and `blackhole(port)` drops —
 * not rejects — every packet between the bank and that port, until `heal()`. The nft table lives inside the
 * sender, so each side's kernel sees its packets leave and go unanswered, as on a real network: the drops are in the
 * receiving end's ingress hook — the bank's on its veth end (inside the namespace), PostgreSQL's or Redis's on the
 * host's veth end (a host table named for the namespace). Dropped in the sender's own output hook instead, the
 * sender's TCP would see a local failure and back off differently from a network that loses packets.
 */
export interface BankNamespace {
  readonly name: string;
  /** The host side of the veth pair: the servers listen here. */
  readonly hostAddress: string;
  /** The bank's side: the test reaches the bank here. */
  readonly bankAddress: string;
  /** Put before a command to run it in the namespace. */
  readonly prefix: string;
  blackhole(port: number): Promise<void>;
  heal(): Promise<void>;
  /** The bank's own TCP sockets to the host side's `port`, as its kernel holds them: local port → state (ESTAB, FIN-WAIT-1…). */
  sockets(port: number): Promise<Map<number, string>>;
  destroy(): Promise<void>;
}

async function sh(command: string, args: string[]): Promise<string> {
  const { stdout } = await run(command, args, { timeout: 10_000 });
  return stdout;
}

/** Namespaces and host tables this helper left behind in a process that died before its clean-up (named for its pid). */
async function removeStale(): Promise<void> {
  const tables = await sh('nft', ['list', 'tables', 'netdev']).catch(() => '');
  for (const line of tables.split('\n')) {
    const table = line.trim().split(' ')[2] ?? '';
    const pid = Number(table.slice(HOST_TABLE_PREFIX.length).split('_')[0]);
    if (table.startsWith(HOST_TABLE_PREFIX) && Number.isInteger(pid) && pid > 0 && !processAlive(pid)) await sh('nft', ['delete', 'table', 'netdev', table]).catch(() => undefined);
  }
  const list = await sh('ip', ['netns', 'list']);
  for (const line of list.split('\n')) {
    const name = line.split(' ')[0] ?? '';
    const pid = Number(name.slice(PREFIX.length).split('-')[0]);
    if (name.startsWith(PREFIX) && Number.isInteger(pid) && pid > 0 && !processAlive(pid)) await sh('ip', ['netns', 'del', name]).catch(() => undefined);
  }
}

export async function createBankNamespace(): Promise<BankNamespace> {
  try {
    await sh('ip', ['-V']);
    await sh('nft', ['--version']);
  } catch (error) {
    throw new Error(`The partition test needs the ip (iproute2) and nft (nftables) commands, run as root: ${(error as Error).message}`, { cause: error });
  }
  await removeStale().catch(() => undefined);
  const tag = `${process.pid}-${randomInt(1_000)}`;
  const name = `${PREFIX}${tag}`;
  const hostLink = `bph${tag}`.slice(0, 15);
  const bankLink = `bpn${tag}`.slice(0, 15);
  const subnet = `10.231.${randomInt(256)}.${randomInt(64) * 4}`;
  const base = subnet.split('.').map(Number);
  const hostAddress = `${base[0]}.${base[1]}.${base[2]}.${base[3]! + 1}`;
  const bankAddress = `${base[0]}.${base[1]}.${base[2]}.${base[3]! + 2}`;
  const hostTable = `${HOST_TABLE_PREFIX}${tag.replace('-', '_')}`;
  const inNs = (...args: string[]) => sh('ip', ['netns', 'exec', name, ...args]);
  try {
    await sh('ip', ['netns', 'add', name]);
  } catch (error) {
    throw new Error(`Could not create a network namespace (the partition test needs root and 'ip netns'): ${(error as Error).message}`, { cause: error });
  }
  const destroy = async () => {
    // Deleting the namespace deletes its end of the veth pair (and so the host's end) and its nft table.
    await sh('nft', ['delete', 'table', 'netdev', hostTable]).catch(() => undefined);
    await sh('ip', ['netns', 'del', name]).catch(() => undefined);
    await sh('ip', ['link', 'del', hostLink]).catch(() => undefined);
  };
  try {
    await sh('ip', ['link', 'add', hostLink, 'type', 'veth', 'peer', 'name', bankLink]);
    await sh('ip', ['link', 'set', bankLink, 'netns', name]);
    await sh('ip', ['addr', 'add', `${hostAddress}/30`, 'dev', hostLink]);
    await sh('ip', ['link', 'set', hostLink, 'up']);
    await inNs('ip', 'addr', 'add', `${bankAddress}/30`, 'dev', bankLink);
    await inNs('ip', 'link', 'set', bankLink, 'up');
    await inNs('ip', 'link', 'set', 'lo', 'up');
    await inNs('nft', 'add', 'table', 'netdev', TABLE);
    await sh('nft', ['add', 'table', 'netdev', hostTable]);
  } catch (error) {
    await destroy();
    throw new Error(`Could not set up the bank's network namespace (veth pair, nft): ${(error as Error).message}`, { cause: error });
  }
  return {
    name,
    hostAddress,
    bankAddress,
    prefix: `ip netns exec ${name}`,
    async blackhole(port: number) {
      // The server's packets to the bank, dropped as they reach the bank's end; the bank's to the server, as they reach the host's.
      await inNs('nft', 'add', 'chain', 'netdev', TABLE, 'in', `{ type filter hook ingress device ${bankLink} priority 0 ; policy accept ; }`);
      await inNs('nft', 'add', 'rule', 'netdev', TABLE, 'in', 'ip', 'saddr', hostAddress, 'tcp', 'sport', String(port), 'drop');
      await sh('nft', ['add', 'chain', 'netdev', hostTable, 'in', `{ type filter hook ingress device ${hostLink} priority 0 ; policy accept ; }`]);
      await sh('nft', ['add', 'rule', 'netdev', hostTable, 'in', 'ip', 'saddr', bankAddress, 'tcp', 'dport', String(port), 'drop']);
    },
    async heal() {
      await inNs('nft', 'delete', 'chain', 'netdev', TABLE, 'in');
      await sh('nft', ['delete', 'chain', 'netdev', hostTable, 'in']);
    },
    async sockets(port: number) {
      const out = await inNs('ss', '-Htan', 'dst', `${hostAddress}:${port}`);
      const sockets = new Map<number, string>();
      for (const line of out.split('\n')) {
        const [state, , , local] = line.trim().split(/\s+/);
        const localPort = Number(local?.slice(local.lastIndexOf(':') + 1));
        if (state && Number.isInteger(localPort) && localPort > 0) sockets.set(localPort, state);
      }
      return sockets;
    },
    destroy,
  };
}
