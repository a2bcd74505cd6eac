import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { AppConfig } from '../../src/config/app-config';
import { ConfigValidationError, loadConfig } from '../../src/config/load-config';
import { DATA_FILES } from '../../src/start-config';
import { AssetsFileError, parseAssetsFile } from '../../src/ingest/catalog/assets-file';
import { resolveUpstream } from '../../src/upstream/upstream-settings';
import { fuzzParameters } from './support/fuzz-run';
import { damagedText, jsonText, JsonLike, junkValue, mutatedJson } from './support/junk-json';

const CASES = 2_000;
const SECRET = 'S3CRET-never-shown';
const KEYS = Object.keys(new AppConfig()).filter((key) => !key.endsWith('_FILE'));

/** Values of every kind the keys take, some fine and some not. */
const value = fc.oneof(
  fc.constantFrom(
    '',
    ' ',
    '0',
    '1',
    '-1',
    '80',
    '65536',
    '1e3',
    '0x10',
    'NaN',
    'true',
    'FALSE',
    'maybe',
    'all',
    'api',
    'ingest',
    'sandbox',
    'hub',
    'gateway',
    'warn',
    'http://exchange.example',
    'https://exchange.example:8443/trading',
    'ws://exchange.example',
    'redis://localhost:6379',
    `redis://:${SECRET}@host:6379`,
    `http://user:${SECRET}@host`,
    'http://[::1',
    'http://exa mple.com',
    'file:///etc/passwd',
    'OrderTradeEvent',
    'a@b.c',
    '../../etc/passwd',
  ),
  fc.string({ maxLength: 30 }),
  fc.integer({ min: -100_000, max: 10_000_000 }).map(String),
);

const environment = fc.dictionary(fc.oneof(fc.constantFrom(...KEYS), fc.string({ maxLength: 10 })), value, {
  maxKeys: 8,
});

describe('configuration under fuzzing', () => {
  it('random environments give a valid config, or one error naming every bad key and no secret', () => {
    fc.assert(
      fc.property(environment, fc.boolean(), (env, withPassword) => {
        if (withPassword) env.UPSTREAM_PASSWORD = SECRET;
        let config: AppConfig;
        try {
          config = loadConfig(env, DATA_FILES);
        } catch (error) {
          expect(error).toBeInstanceOf(ConfigValidationError);
          const { message, problems } = error as ConfigValidationError;
          expect(message).not.toContain(SECRET);
          expect(message).not.toMatch(/\bat .+\.(ts|js):\d+/);
          expect(problems.length).toBeGreaterThan(0);
          // Each key that is wrong by itself is named in the one error.
          for (const key of Object.keys(env).filter((name) => KEYS.includes(name))) {
            const alone = problemsOf({ [key]: env[key] }).filter((problem) => problem.startsWith(`${key}=`));
            if (alone.length > 0) expect(problems).toEqual(expect.arrayContaining(alone));
          }
          return;
        }
        expect(config).toBeInstanceOf(AppConfig);
        // A valid configuration always yields the upstream addresses.
        const sandbox = {
          baseUrl: 'http://127.0.0.1:4000',
          authUrl: 'http://127.0.0.1:4000',
          wsUrl: 'ws://127.0.0.1:4000',
        };
        const upstream = resolveUpstream(config, sandbox);
        expect(() => new URL(upstream.baseUrl)).not.toThrow();
        expect(() => new URL(upstream.wsUrl)).not.toThrow();
      }),
      fuzzParameters(CASES),
    );
  });
});

function problemsOf(env: Record<string, string>): readonly string[] {
  try {
    loadConfig(env, DATA_FILES);
    return [];
  } catch (error) {
    return (error as ConfigValidationError).problems;
  }
}

describe('assets file under fuzzing', () => {
  const example = JSON.parse(
    readFileSync(join(__dirname, '..', '..', 'src', 'ingest', 'catalog', 'assets.example.json'), 'utf8'),
  ) as JsonLike;
  const text = jsonText(example);

  it('the example is valid', () => {
    expect(parseAssetsFile(text).size).toBeGreaterThan(2);
  });

  it('junk content gives the entries or one AssetsFileError listing its problems, nothing else', () => {
    const content = fc.oneof(
      { arbitrary: mutatedJson(example).map(jsonText), weight: 6 },
      { arbitrary: damagedText(text), weight: 2 },
      { arbitrary: junkValue.map(jsonText), weight: 1 },
      { arbitrary: fc.string({ unit: 'binary', maxLength: 200 }), weight: 1 },
    );
    fc.assert(
      fc.property(content, (file) => {
        try {
          const assets = parseAssetsFile(file, 'ASSETS_FILE assets.json');
          for (const symbol of assets.keys()) expect(symbol).toBe(symbol.toUpperCase());
        } catch (error) {
          expect(error).toBeInstanceOf(AssetsFileError);
          const { message, problems } = error as AssetsFileError;
          expect(problems.length).toBeGreaterThan(0);
          expect(message.startsWith('ASSETS_FILE assets.json is invalid:')).toBe(true);
          for (const problem of problems) expect(problem.length).toBeLessThan(400);
        }
      }),
      fuzzParameters(CASES),
    );
  });
});
