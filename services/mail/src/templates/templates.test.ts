import { describe, expect, it } from 'vitest';
import { bankDetails, isValidRoutingNumber } from '../bankDetails';
import { LINK_KINDS, NOTICE_KINDS } from '../messageKinds';
import { renderMessage } from './index';

const context = { bank: bankDetails(), appOrigin: 'https://bank.test', link: 'https://bank.test/reset-password?token=abc' };

describe('the templates', () => {
  it('every kind has a subject, a text and an HTML part with the bank name and address', () => {
    for (const kind of [...NOTICE_KINDS, ...LINK_KINDS]) {
      const message = renderMessage(kind, { firstName: 'Ada', amount: '$1.00', last4: '1234' }, context);
      expect(message.subject.length, kind).toBeGreaterThan(5);
      for (const part of [message.text, message.html]) {
        expect(part, kind).toContain('Summit Bank');
        expect(part, kind).toContain('1200 Summit Plaza');
        expect(part, kind).toContain('Ada');
      }
    }
  });

  it('escapes what a customer wrote in the HTML part', () => {
    const message = renderMessage('moneyReceived', { firstName: '<b>Ada</b>', description: '<script>x</script>' }, context);
    expect(message.html).not.toContain('<script>x');
    expect(message.html).toContain('&lt;script&gt;x&lt;/script&gt;');
    expect(message.text).toContain('<script>x</script>');
  });

  it('an optional notice says where to turn it off; a security notice cannot be turned off and does not', () => {
    for (const kind of ['moneyReceived', 'transferReturned', 'standingOrderFailed', 'interestPaid', 'statementReady'] as const) {
      const message = renderMessage(kind, { firstName: 'Ada' }, context);
      expect(message.text, kind).toContain('https://bank.test/account/notifications');
      expect(message.html, kind).toContain('https://bank.test/account/notifications');
    }
    for (const kind of ['newDevice', 'passwordChanged', 'secondFactorChanged'] as const) {
      expect(renderMessage(kind, { firstName: 'Ada' }, context).text, kind).not.toContain('/account/notifications');
    }
    expect(renderMessage('interestPaid', { firstName: 'Ada', amount: '$4.25' }, context).text).toContain('https://bank.test/account/interest');
  });

  it('the routing number: the ABA check digit', () => {
    expect(isValidRoutingNumber('102000021')).toBe(true);
    expect(isValidRoutingNumber('102000022')).toBe(false);
    expect(isValidRoutingNumber('12345678')).toBe(false);
  });
});
