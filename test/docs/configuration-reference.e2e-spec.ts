import { join } from 'node:path';
import { AppConfig } from '../../src/config/app-config';

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
});
