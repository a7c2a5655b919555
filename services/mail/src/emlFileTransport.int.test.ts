import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
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
