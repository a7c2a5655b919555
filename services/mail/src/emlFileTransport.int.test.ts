import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { emlFileTransport, type Envelope } from './transport';

const root = mkdtempSync(path.join(tmpdir(), 'eml-transport-'));

afterAll(() => rmSync(root, { recursive: true, force: true }));

const envelope = (id: string): Envelope => ({
  id,
  from: 'bank@summitbank.example',
  to: 'ada@example.com',
  subject: `Subject of ${id}`,
  text: 'text part',
  html: '<p>html part</p>',
  messageId: `<${id}@summitbank.example>`,
});

describe('the .eml file transport', () => {
  it('writes each message whole under its id, and makes its folder again when it was removed meanwhile', async () => {
    const folder = path.join(root, 'outbox');
    const transport = emlFileTransport(folder);
    await transport.send(envelope('moneyReceived.one'));
    rmSync(folder, { recursive: true });
    await transport.send(envelope('moneyReceived.two'));
    await transport.send(envelope('moneyReceived.three'));
    transport.close();
    expect(readdirSync(folder).sort()).toEqual(['moneyReceived.three.eml', 'moneyReceived.two.eml']);
    const text = readFileSync(path.join(folder, 'moneyReceived.two.eml'), 'utf8');
    expect(text).toContain('Subject: Subject of moneyReceived.two');
    expect(text).toContain('Message-ID: <moneyReceived.two@summitbank.example>');
  });
});

describe('what the .eml file transport costs', () => {
  it('writes a message within the turn that sends it: no hand-over to the thread pool and back', async () => {
    const folder = path.join(root, 'one-turn');
    const transport = emlFileTransport(folder);
    await transport.send(envelope('moneyReceived.first'));
    let loopTurned = false;
    const immediate = setImmediate(() => {
      loopTurned = true;
    });
    await transport.send(envelope('moneyReceived.second'));
    clearImmediate(immediate);
    expect(loopTurned).toBe(false);
    expect(readdirSync(folder).sort()).toEqual(['moneyReceived.first.eml', 'moneyReceived.second.eml']);
  });
});

describe('the .eml file transport when the folder cannot be written', () => {
  it('rejects the send with the file system error and leaves nothing behind', async () => {
    const blocker = path.join(root, 'not-a-folder');
    writeFileSync(blocker, 'a file where the outbox folder should be');
    const transport = emlFileTransport(path.join(blocker, 'outbox'));
    await expect(transport.send(envelope('moneyReceived.four'))).rejects.toMatchObject({ code: 'ENOTDIR' });
    expect(readFileSync(blocker, 'utf8')).toBe('a file where the outbox folder should be');
  });
});
