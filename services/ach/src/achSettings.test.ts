import { describe, expect, it } from 'vitest';
import { parseAchSettings } from './achSettings';

describe('ACH settings', () => {
  it('default to the local folders (no SFTP)', () => {
    expect(parseAchSettings({})).toEqual({ ACH_SFTP_OUTBOX: 'outbox', ACH_SFTP_INBOX: 'inbox', ACH_SFTP_TIMEOUT_MS: 20_000, ACH_CUTOFFS: ['10:30', '16:00'], ACH_POLL_EVERY_MS: 30_000 });
  });

  it('read the cut-offs as sorted UTC times, refusing anything else', () => {
    expect(parseAchSettings({ ACH_CUTOFFS: '16:00, 08:15,16:00' }).ACH_CUTOFFS).toEqual(['08:15', '16:00']);
    expect(() => parseAchSettings({ ACH_CUTOFFS: '24:00' })).toThrow(/ACH_CUTOFFS: must be times HH:MM/);
    expect(() => parseAchSettings({ ACH_CUTOFFS: '9:00' })).toThrow(/ACH_CUTOFFS/);
  });

  it('read sftp://user@host:port/path', () => {
    const settings = parseAchSettings({ ACH_SFTP_URL: 'sftp://summit@odfi.example:2222/ach/summit/', ACH_SFTP_KEY_FILE: '/keys/ach' });
    expect(settings.ACH_SFTP_URL).toEqual({ host: 'odfi.example', port: 2222, username: 'summit', path: '/ach/summit' });
    expect(parseAchSettings({ ACH_SFTP_URL: 'sftp://summit@odfi.example', ACH_SFTP_KEY_FILE: '/k' }).ACH_SFTP_URL).toEqual({ host: 'odfi.example', port: 22, username: 'summit', path: '' });
  });

  it('refuse what cannot work, naming the variable', () => {
    expect(() => parseAchSettings({ ACH_SFTP_URL: 'sftp://summit@odfi.example/ach' })).toThrow(/ACH_SFTP_KEY_FILE: is required with ACH_SFTP_URL/);
    expect(() => parseAchSettings({ ACH_SFTP_URL: 'https://odfi.example/ach', ACH_SFTP_KEY_FILE: '/k' })).toThrow(/ACH_SFTP_URL: must be sftp:\/\/user@host/);
    expect(() => parseAchSettings({ ACH_SFTP_URL: 'sftp://odfi.example/ach', ACH_SFTP_KEY_FILE: '/k' })).toThrow(/a user and a host are required/);
    expect(() => parseAchSettings({ ACH_SFTP_URL: 'sftp://summit:secret@odfi.example/ach', ACH_SFTP_KEY_FILE: '/k' })).toThrow(/must not hold a password/);
    expect(() => parseAchSettings({ ACH_SFTP_HOST_KEY_SHA256: 'MD5:ab:cd' })).toThrow(/ACH_SFTP_HOST_KEY_SHA256/);
    expect(() => parseAchSettings({ ACH_SFTP_INBOX: '../etc' })).toThrow(/ACH_SFTP_INBOX: must not climb out/);
    expect(() => parseAchSettings({ NODE_ENV: 'production', ACH_SFTP_URL: 'sftp://summit@odfi.example/ach', ACH_SFTP_KEY_FILE: '/k' })).toThrow(/ACH_SFTP_HOST_KEY_SHA256: is required in production/);
  });
});
