import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Role } from './role';
import { ConfigValidationError, loadConfig } from './load-config';

/** A trial on the built-in exchange: what `npm start` sets when no exchange is named. */
const TRIAL = { SANDBOX: 'true' };

describe('loadConfig', () => {
  it('gives the laptop defaults for a trial', () => {
    const config = loadConfig(TRIAL);
    expect(config.ROLE).toBe(Role.All);
    expect(config.PORT).toBe(3000);
    expect(config.SANDBOX).toBe(true);
    expect(config.REDIS_URL).toBeUndefined();
    expect(config.REDIS_CLUSTER).toBe(false);
  });

  it('refuses an ingesting role without an exchange, naming UPSTREAM_BASE_URL and the sandbox switch', () => {
    for (const env of [{}, { ROLE: 'ingest', REDIS_URL: 'redis://r' }]) {
      let error: unknown;
      try {
        loadConfig(env);
      } catch (caught) {
        error = caught;
      }
      expect((error as ConfigValidationError).problems).toEqual([
        expect.stringMatching(
          /^UPSTREAM_BASE_URL: not set; ROLE=(all|ingest) ingests .*SANDBOX=true for a trial/,
        ),
      ]);
    }
    expect(loadConfig({ UPSTREAM_BASE_URL: 'https://exchange.example' }).SANDBOX).toBe(false);
    expect(loadConfig({ ROLE: 'api', REDIS_URL: 'redis://r' }).SANDBOX).toBe(false);
    expect(loadConfig({ ROLE: 'sandbox' }).ROLE).toBe(Role.Sandbox);
  });

  it('refuses the sandbox beside an exchange, and in a role that does not ingest', () => {
    expect(() => loadConfig({ ...TRIAL, UPSTREAM_BASE_URL: 'https://exchange.example' })).toThrow(
      /SANDBOX=true and UPSTREAM_BASE_URL: set one or the other/,
    );
    expect(() => loadConfig({ ...TRIAL, ROLE: 'api', REDIS_URL: 'redis://r' })).toThrow(
      /SANDBOX=true: the sandbox runs in a role that ingests \(all or ingest\), not ROLE=api/,
    );
    expect(loadConfig({ ...TRIAL, ROLE: 'ingest', REDIS_URL: 'redis://r' }).SANDBOX).toBe(true);
  });

  it('converts numbers and booleans and treats empty values as unset', () => {
    const config = loadConfig({
      PORT: '8080',
      REDIS_CLUSTER: '1',
      REDIS_URL: 'redis://localhost:6379',
      UPSTREAM_BASE_URL: '  ',
      ROLE: 'sandbox',
    });
    expect(config.PORT).toBe(8080);
    expect(config.REDIS_CLUSTER).toBe(true);
    expect(config.UPSTREAM_BASE_URL).toBeUndefined();
    expect(config.ROLE).toBe(Role.Sandbox);
  });

  it('lists every bad key with its reason in one error', () => {
    let error: unknown;
    try {
      loadConfig({ ROLE: 'worker', PORT: 'eighty', REDIS_URL: 'http://x', REDIS_CLUSTER: 'maybe' });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigValidationError);
    const problems = (error as ConfigValidationError).problems;
    expect(problems).toHaveLength(4);
    expect(problems.find((p) => p.startsWith('ROLE="worker"'))).toMatch(/all, api, ingest, sandbox/);
    expect(problems.find((p) => p.startsWith('PORT="eighty"'))).toMatch(/integer/);
    expect(problems.find((p) => p.startsWith('REDIS_CLUSTER'))).toMatch(/true or false/);
    expect((error as Error).message.split('\n')).toHaveLength(5);
  });

  it('refuses a variable that is no longer a setting, naming each one still set', () => {
    let error: unknown;
    try {
      loadConfig({ ...TRIAL, FLUSH_INTERVAL_MS: '100', STREAM_HEARTBEAT_MS: '5000', LEASE_TTL_MS: ' ' });
    } catch (caught) {
      error = caught;
    }
    expect((error as ConfigValidationError).problems).toEqual([
      'STREAM_HEARTBEAT_MS: no longer a setting, its value is built in (docs/configuration.md); remove it',
      'FLUSH_INTERVAL_MS: no longer a setting, its value is built in (docs/configuration.md); remove it',
    ]);
  });

  it('never shows secret values', () => {
    expect(() => loadConfig({ REDIS_URL: 'ftp://user:hunter2@host' })).toThrow(/REDIS_URL=<redacted>/);
    try {
      loadConfig({ REDIS_URL: 'ftp://user:hunter2@host', UPSTREAM_PASSWORD: 'hunter2' });
    } catch (error) {
      expect((error as Error).message).not.toContain('hunter2');
    }
  });

  it('reads the Sentinel settings, the Sentinel password from a file as well', () => {
    const config = loadConfig({
      ...TRIAL,
      REDIS_URL: 'redis://:pw@mymaster/0',
      REDIS_SENTINELS: 'sentinel-0:26379, sentinel-1:26379',
      REDIS_SENTINEL_NAME: 'books',
      REDIS_SENTINEL_PASSWORD: 'sentinel-secret',
    });
    expect(config.REDIS_SENTINELS).toBe('sentinel-0:26379, sentinel-1:26379');
    expect(config.REDIS_SENTINEL_NAME).toBe('books');
    expect(config.REDIS_SENTINEL_PASSWORD).toBe('sentinel-secret');
    expect(loadConfig(TRIAL).REDIS_SENTINEL_NAME).toBe('mymaster');

    const dir = mkdtempSync(join(tmpdir(), 'mdg-sentinel-'));
    try {
      writeFileSync(join(dir, 'password'), 'from-file\n');
      const fromFile = loadConfig({
        ...TRIAL,
        REDIS_URL: 'redis://mymaster',
        REDIS_SENTINELS: 's:26379',
        REDIS_SENTINEL_PASSWORD_FILE: join(dir, 'password'),
      });
      expect(fromFile.REDIS_SENTINEL_PASSWORD).toBe('from-file');
      expect(() =>
        loadConfig({
          REDIS_URL: 'redis://mymaster',
          REDIS_SENTINELS: 's:26379',
          REDIS_SENTINEL_PASSWORD: 'x',
          REDIS_SENTINEL_PASSWORD_FILE: join(dir, 'password'),
        }),
      ).toThrow(/REDIS_SENTINEL_PASSWORD and REDIS_SENTINEL_PASSWORD_FILE: set one or the other/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('checks the Sentinel settings and their combination', () => {
    expect(() => loadConfig({ REDIS_URL: 'redis://m', REDIS_SENTINELS: 'sentinel-0' })).toThrow(
      /REDIS_SENTINELS="sentinel-0": .*host:port/,
    );
    // Data nodes without a password need no URL: the Sentinels name the primary.
    expect(loadConfig({ ...TRIAL, REDIS_SENTINELS: 's:26379' }).REDIS_URL).toBeUndefined();
    expect(loadConfig({ ROLE: 'api', REDIS_SENTINELS: 's:26379' }).REDIS_SENTINELS).toBe('s:26379');
    expect(() =>
      loadConfig({ REDIS_URL: 'redis://m', REDIS_SENTINELS: 's:26379', REDIS_CLUSTER: 'true' }),
    ).toThrow(/set one or the other/);
    expect(() => loadConfig({ REDIS_URL: 'redis://m', REDIS_SENTINEL_PASSWORD: 'x' })).toThrow(
      /REDIS_SENTINEL_PASSWORD: needs REDIS_SENTINELS/,
    );
    try {
      loadConfig({ REDIS_SENTINELS: 'bad', REDIS_SENTINEL_PASSWORD: 'hunter2' });
    } catch (error) {
      expect((error as Error).message).not.toContain('hunter2');
    }
  });

  it('checks settings that belong together', () => {
    expect(() => loadConfig({ UPSTREAM_EMAIL: 'a@b.c' })).toThrow(/set both or neither/);
    expect(() => loadConfig({ UPSTREAM_WS_URL: 'ws://x' })).toThrow(/need UPSTREAM_BASE_URL/);
    expect(() => loadConfig({ PORT: '3000', CONSOLE_PORT: '3000' })).toThrow(/CONSOLE_PORT: must differ/);
    expect(loadConfig({ ...TRIAL, CONSOLE_PORT: '3001' }).CONSOLE_PORT).toBe(3001);
  });

  it('reads the console settings, a safe allow-list by default', () => {
    const config = loadConfig(TRIAL);
    expect(config).toMatchObject({
      CONSOLE_ENABLED: true,
      STATUS_PAGE_ENABLED: true,
      CONSOLE_ALLOW: 'loopback,uniquelocal',
    });
    expect(config.CONSOLE_PORT).toBeUndefined();
    expect(() => loadConfig({ CONSOLE_ALLOW: '10.0.0.0/8; rm' })).toThrow(/CONSOLE_ALLOW/);
    expect(loadConfig({ ...TRIAL, CONSOLE_ALLOW: '*' }).CONSOLE_ALLOW).toBe('*');
  });
});

describe('loadConfig with secrets in files', () => {
  const dir = mkdtempSync(join(tmpdir(), 'mdg-config-'));
  const file = (name: string, content: string) => {
    const path = join(dir, name);
    writeFileSync(path, content);
    return path;
  };
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('reads each secret from the file its _FILE variable names, trimmed', () => {
    const config = loadConfig({
      UPSTREAM_BASE_URL: 'https://exchange.example',
      UPSTREAM_EMAIL_FILE: file('email', 'bot@example.com\n'),
      UPSTREAM_PASSWORD_FILE: file('password', '  s3cret-from-file \n'),
      REDIS_URL_FILE: file('redis', 'redis://:pw@redis:6379\n'),
    });
    expect(config.UPSTREAM_EMAIL).toBe('bot@example.com');
    expect(config.UPSTREAM_PASSWORD).toBe('s3cret-from-file');
    expect(config.REDIS_URL).toBe('redis://:pw@redis:6379');
  });

  it('names a missing, empty or doubly set secret, and never shows what a file holds', () => {
    let error: unknown;
    try {
      loadConfig({
        UPSTREAM_PASSWORD_FILE: join(dir, 'nope'),
        UPSTREAM_EMAIL_FILE: file('empty', ' \n'),
        REDIS_URL: 'redis://a',
        REDIS_URL_FILE: file('redis2', 'redis://b'),
      });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigValidationError);
    const problems = (error as ConfigValidationError).problems;
    expect(problems).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^UPSTREAM_PASSWORD_FILE=".*nope": cannot be read \(ENOENT\)$/),
        expect.stringMatching(/^UPSTREAM_EMAIL_FILE=".*empty": the file is empty$/),
        'REDIS_URL and REDIS_URL_FILE: set one or the other',
      ]),
    );
  });

  it('validates a secret read from a file without showing it', () => {
    expect(() => loadConfig({ REDIS_URL_FILE: file('bad-redis', 'http://user:hunter2@host') })).toThrow(
      /REDIS_URL=<redacted>: must be a URL starting with redis:\/\/ or rediss:\/\//,
    );
    try {
      loadConfig({ REDIS_URL_FILE: file('bad-redis2', 'http://user:hunter2@host') });
    } catch (error) {
      expect((error as Error).message).not.toContain('hunter2');
    }
  });
});
