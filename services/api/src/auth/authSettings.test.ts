import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ConfigError } from '@bank/platform';
import { afterEach, describe, expect, it } from 'vitest';
import { loadAuthSettings } from './authSettings';

const dirs: string[] = [];
const dataDir = () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'auth-settings-'));
  dirs.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
const KEYS = `k1:${Buffer.alloc(32, 1).toString('base64')}`;

describe('loadAuthSettings', () => {
  it('requires a staff second factor by default', () => {
    expect(loadAuthSettings({ NODE_ENV: 'production', DATA_DIR: dataDir() }, { TOTP_KEYS: KEYS }).staffSecondFactor).toBe('required');
  });

  it("refuses STAFF_SECOND_FACTOR=optional in production, and anything but 'required' or 'optional'", () => {
    expect(() => loadAuthSettings({ NODE_ENV: 'production', DATA_DIR: dataDir() }, { TOTP_KEYS: KEYS, STAFF_SECOND_FACTOR: 'optional' })).toThrow(
      /STAFF_SECOND_FACTOR: optional is for local development only/,
    );
    expect(() => loadAuthSettings({ NODE_ENV: 'development', DATA_DIR: dataDir() }, { STAFF_SECOND_FACTOR: 'off' })).toThrow(ConfigError);
    expect(loadAuthSettings({ NODE_ENV: 'development', DATA_DIR: dataDir() }, { STAFF_SECOND_FACTOR: 'optional' }).staffSecondFactor).toBe('optional');
  });

  it('needs TOTP_KEYS in production; outside it, creates a private key file in DATA_DIR', () => {
    expect(() => loadAuthSettings({ NODE_ENV: 'production', DATA_DIR: dataDir() }, {})).toThrow(/TOTP_KEYS: required in production/);
    const dir = dataDir();
    const settings = loadAuthSettings({ NODE_ENV: 'development', DATA_DIR: dir }, {});
    expect(settings.secondFactorKeys.current.key).toHaveLength(32);
    expect(statSync(path.join(dir, 'keys', 'totp.json')).mode & 0o777).toBe(0o600);
  });
});
