import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { AppConfig } from '../../src/config/app-config';
import { REMOVED_SETTINGS } from '../../src/config/removed-settings';

interface GeneratedDocument {
  readonly path: string;
  readonly current: string;
  readonly expected: string;
}

// The generator is a plain script: the test reads the same classes through Jest's transform.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const generator = require('../../scripts/config-table.js') as {
  expectedDocuments(): GeneratedDocument[];
  configTable(source: string, className: string, ConfigClass: new () => object): string;
};

const ROOT = join(__dirname, '..', '..');

describe('the configuration reference', () => {
  const documents = generator.expectedDocuments();

  it.each(documents.map((document) => [document.path.slice(ROOT.length + 1), document]))(
    '%s is what `npm run config-table` writes from its configuration class',
    (path, document) => {
      const verdict =
        document.current === document.expected
          ? 'up to date'
          : `${path} is not what its configuration class gives: run \`npm run config-table\``;
      expect(verdict).toBe('up to date');
    },
  );

  it('has one row per setting of AppConfig, in its order, each with a default and a description', () => {
    const table = generator.configTable(join(ROOT, 'src', 'config', 'app-config.ts'), 'AppConfig', AppConfig);
    const rows = table.split('\n').slice(2);
    expect(rows.map((row) => /^\| `([A-Z0-9_]+)` \|/.exec(row)?.[1])).toEqual(Object.keys(new AppConfig()));
    for (const row of rows) expect(row).toMatch(/^\| `[A-Z0-9_]+` \| (`[^`]+`|unset|empty) \| \S.* \|$/);
  });

  it('names none of the variables that are no longer settings as a setting', () => {
    const page = readFileSync(join(ROOT, 'docs', 'configuration.md'), 'utf8');
    const listed = new Set([...page.matchAll(/^\| `([A-Z0-9_]+)` \|/gm)].map((match) => match[1]));
    expect(REMOVED_SETTINGS.filter((key) => listed.has(key))).toEqual([]);
    expect(Object.keys(new AppConfig()).filter((key) => REMOVED_SETTINGS.includes(key))).toEqual([]);
  });
});
