import { readFileSync, mkdirSync, writeFileSync, readdirSync, existsSync } from 'node:fs';
import path from 'node:path';
import { achCycleDecider, buildOutboundFile, parseNachaFile, type AchCycleEvent } from '@bank/domain';
import { achFileSettingsOf } from './cycle/achCycleDeps';
import { sha256Hex } from './cycle/buildAchFile';
import { writeReturnsFile } from './odfi/returnsFile';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseAchSettings } from './achSettings';
import { AchTransportError, type AchTransport } from './achTransport';
import { createAchTransport } from './createAchTransport';
import { startSshServer, type SshServer } from './testing/sshServer';

/**
 * A real SFTP server (Debian's openssh-server, started here on a free port with a temporary host key, the bank's
 * user key authorised, ForceCommand internal-sftp): a NACHA file goes up and a returns file comes down.
 */
let server: SshServer;
let transport: AchTransport;

const outbound = buildOutboundFile(
  [
    { transactionCode: 22, rdfiRoutingNumber: '021000021', accountNumber: '4000123456', amountCents: 12_345, name: 'Grace Hopper', individualIdentification: 'T1', effectiveDate: '2026-11-27' },
    { transactionCode: 32, rdfiRoutingNumber: '121000358', accountNumber: '778899', amountCents: 500, name: 'Ada Lovelace', individualIdentification: 'T2', effectiveDate: '2026-11-27' },
  ],
  {
    bankRoutingNumber: '102000021',
    bankName: 'Summit Bank',
    destinationRoutingNumber: '011000015',
    destinationName: 'Federal Reserve Bank',
    companyIdentification: '1102000021',
    entryDescription: 'TRANSFER',
    createdAt: '2026-11-25T17:05:00Z',
    fileIdModifier: 'A',
    firstTraceSequence: 1,
  },
).text;

/** The ODFI's answer: the second entry returned R03. */
const returns = buildOutboundFile(
  [
    {
      transactionCode: 31,
      rdfiRoutingNumber: '102000021',
      accountNumber: '778899',
      amountCents: 500,
      name: 'Ada Lovelace',
      individualIdentification: 'T2',
      effectiveDate: '2026-11-30',
      returnOf: { reasonCode: 'R03', originalTraceNumber: '102000020000002', originalReceivingDfi: '12100035' },
    },
  ],
  {
    bankRoutingNumber: '011000015',
    bankName: 'Federal Reserve Bank',
    destinationRoutingNumber: '102000021',
    destinationName: 'Summit Bank',
    companyIdentification: '1102000021',
    entryDescription: 'RETURN',
    createdAt: '2026-11-30T06:15:00Z',
    fileIdModifier: 'A',
    firstTraceSequence: 1,
  },
).text;

function sftpEnv(overrides: Record<string, string> = {}): Record<string, string> {
  return {
    ACH_SFTP_URL: `sftp://${server.username}@127.0.0.1:${server.port}${server.remoteDir}`,
    ACH_SFTP_KEY_FILE: server.userKeyFile,
    ACH_SFTP_HOST_KEY_SHA256: server.hostKeySha256,
    ACH_SFTP_TIMEOUT_MS: '5000',
    ...overrides,
  };
}

beforeAll(async () => {
  server = await startSshServer();
  transport = createAchTransport(parseAchSettings(sftpEnv()), '/nonexistent');
});

afterAll(async () => {
  await server?.stop();
});

describe('ACH over SFTP (a real OpenSSH server)', () => {
  it('uploads a NACHA file whole into the outbox (created when missing), and again is accepted as already there', async () => {
    expect(transport.kind).toBe('sftp');
    const receipt = await transport.upload('ACH-20261125-A.txt', outbound);
    expect(receipt).toMatchObject({ location: `sftp://${server.username}@127.0.0.1:${server.port}${server.remoteDir}/outbox/ACH-20261125-A.txt`, bytes: outbound.length, alreadyThere: false });
    const onServer = readFileSync(path.join(server.remoteDir, 'outbox', 'ACH-20261125-A.txt'), 'utf8');
    expect(onServer).toBe(outbound);
    expect(parseNachaFile(onServer).control.totalCreditCents).toBe(12_845n);
    expect(readdirSync(path.join(server.remoteDir, 'outbox'))).toEqual(['ACH-20261125-A.txt']); // no .part left
    expect(await transport.upload('ACH-20261125-A.txt', outbound)).toMatchObject({ alreadyThere: true, sha256: receipt.sha256 });
    await expect(transport.upload('ACH-20261125-A.txt', `${outbound}x`)).rejects.toThrow(/already holds another file/);
  });

  it('lists the inbox and downloads a returns file that parses back', async () => {
    expect(await transport.listInbox()).toEqual([]); // no inbox yet
    mkdirSync(path.join(server.remoteDir, 'inbox'));
    writeFileSync(path.join(server.remoteDir, 'inbox', 'RET-20261130-A.txt'), returns);
    writeFileSync(path.join(server.remoteDir, 'inbox', 'RET-20261130-B.txt.part'), 'half');
    const listed = await transport.listInbox();
    expect(listed.map((file) => [file.name, file.bytes])).toEqual([['RET-20261130-A.txt', returns.length]]);
    const text = await transport.download('RET-20261130-A.txt');
    expect(text).toBe(returns);
    const entry = parseNachaFile(text).batches[0]!.entries[0]!;
    expect(entry.addenda).toMatchObject({ type: '99', returnReasonCode: 'R03', originalTraceNumber: '102000020000002' });
  });

  it("a file built by the cycle's builder goes up, and the ODFI's returns for it come down and match its trace numbers", async () => {
    let state = achCycleDecider.initialState;
    const apply = (events: AchCycleEvent[]) => {
      for (const event of events) state = achCycleDecider.evolve(state, event);
      return events;
    };
    for (const [n, accountNumber] of ['4000123456', '778899'].entries()) {
      apply(achCycleDecider.decide({ type: 'QueueAchEntry', entry: { transferId: `00000000-0000-4000-8000-00000000010${n}`, amountCents: 1_000 + n, routingNumber: '021000021', accountNumber, name: `Payee ${n}`, transactionCode: 22 }, now: '2026-11-25T17:05:00.000Z' }, state));
    }
    const [built] = apply(achCycleDecider.decide({ type: 'BuildAchFile', fileId: '00000000-0000-4000-8000-000000000200', businessDate: '2026-11-25', settings: achFileSettingsOf('102000021'), sha256: sha256Hex, now: '2026-11-25T17:05:00.000Z' }, state));
    if (built?.type !== 'AchFileBuilt') throw new Error('expected a file');
    const receipt = await transport.upload('ACH-202611251705-built.txt', built.data.text);
    expect(receipt.sha256).toBe(built.data.sha256);
    expect(readFileSync(path.join(server.remoteDir, 'outbox', 'ACH-202611251705-built.txt'), 'utf8')).toBe(built.data.text);
    const answer = writeReturnsFile({ outbound: readFileSync(path.join(server.remoteDir, 'outbox', 'ACH-202611251705-built.txt'), 'utf8'), accountNumbers: ['778899'], reasonCode: 'R03', createdAt: '2026-11-30T06:15:00.000Z' });
    writeFileSync(path.join(server.remoteDir, 'inbox', 'RET-built.txt'), answer.text);
    const downloaded = parseNachaFile(await transport.download('RET-built.txt'));
    expect(downloaded.batches[0]!.entries[0]!.addenda).toMatchObject({ type: '99', returnReasonCode: 'R03', originalTraceNumber: built.data.entries[1]!.traceNumber });
  });

  it('refuses names with folders, a key the server does not know, and a server with another host key', async () => {
    await expect(transport.upload('../escape.txt', outbound)).rejects.toThrow(AchTransportError);
    await expect(transport.download('inbox/../../x')).rejects.toThrow(/Not an ACH file name/);
    const stranger = createAchTransport(parseAchSettings(sftpEnv({ ACH_SFTP_KEY_FILE: server.strangerKeyFile })), '/nonexistent');
    await expect(stranger.listInbox()).rejects.toThrow(/Listing the inbox: cannot connect to sftp:\/\/.*All configured authentication methods failed/);
    const impostor = createAchTransport(parseAchSettings(sftpEnv({ ACH_SFTP_HOST_KEY_SHA256: `SHA256:${'A'.repeat(43)}` })), '/nonexistent');
    await expect(impostor.listInbox()).rejects.toThrow(/answered with host key SHA256:.+ refused/);
  });
});

describe('ACH without ACH_SFTP_URL: DATA_DIR/ach/', () => {
  it('writes to DATA_DIR/ach/outbox/ and reads DATA_DIR/ach/inbox/', async () => {
    const dataDir = path.join(server.dir, 'data');
    const local = createAchTransport(parseAchSettings({}), dataDir);
    expect(local.kind).toBe('directory');
    expect(await local.listInbox()).toEqual([]);
    const receipt = await local.upload('ACH-20261125-A.txt', outbound);
    expect(receipt).toMatchObject({ location: path.join(dataDir, 'ach', 'outbox', 'ACH-20261125-A.txt'), alreadyThere: false });
    expect(readFileSync(receipt.location, 'utf8')).toBe(outbound);
    expect(await local.upload('ACH-20261125-A.txt', outbound)).toMatchObject({ alreadyThere: true });
    await expect(local.upload('ACH-20261125-A.txt', returns)).rejects.toThrow(/already holds another file/);
    await expect(local.upload('.hidden', outbound)).rejects.toThrow(/Not an ACH file name/);
    mkdirSync(path.join(dataDir, 'ach', 'inbox'));
    writeFileSync(path.join(dataDir, 'ach', 'inbox', 'RET-1.txt'), returns);
    expect((await local.listInbox()).map((file) => file.name)).toEqual(['RET-1.txt']);
    expect(await local.download('RET-1.txt')).toBe(returns);
    expect(existsSync(path.join(dataDir, 'ach', 'outbox', 'ACH-20261125-A.txt.part'))).toBe(false);
  });
});
