import { describe, expect, it } from 'vitest';
import { isServerAnswer } from './stalledConnections';

describe("the stall probe's verdict on a failed probe", () => {
  it('counts an error the server sent (too many clients, starting up, shutting down) as the server answering', () => {
    for (const code of ['53300', '57P03', '57P01', '28P01', '3D000']) expect(isServerAnswer(Object.assign(new Error('refused'), { code }))).toBe(true);
  });

  it('counts the connect timeout, a refused or reset socket and a plain timeout as no answer', () => {
    expect(isServerAnswer(Object.assign(new Error('Connection terminated: no connection'), { code: '08001' }))).toBe(false);
    expect(isServerAnswer(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }))).toBe(false);
    expect(isServerAnswer(Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' }))).toBe(false);
    expect(isServerAnswer(new Error('timeout expired'))).toBe(false);
    expect(isServerAnswer(undefined)).toBe(false);
  });
});
