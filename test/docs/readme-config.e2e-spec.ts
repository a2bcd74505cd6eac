import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { AppConfig } from '../../src/config/app-config';

describe('README configuration table', () => {
  const readme = readFileSync(join(__dirname, '..', '..', 'README.md'), 'utf8');
  const table = readme.slice(
    readme.indexOf('<!-- config-table:start -->'),
    readme.indexOf('<!-- config-table:end -->'),
  );
  const documented = new Set([...table.matchAll(/`([A-Z][A-Z0-9_]+)`/g)].map((match) => match[1]));

  it('documents every setting of the configuration class', () => {
    const missing = Object.keys(new AppConfig()).filter((key) => !documented.has(key));
    expect(missing).toEqual([]);
  });

  it('lists the settings in the order of the configuration class, which groups them by concern', () => {
    const rows = table.split('\n').filter((line) => line.startsWith('| `'));
    const listed = rows.flatMap((row) =>
      [...row.split('|')[1].matchAll(/`([A-Z][A-Z0-9_]+)`/g)].map((match) => match[1]),
    );
    expect(listed).toEqual(Object.keys(new AppConfig()));
  });

  it('documents no setting that does not exist', () => {
    const known = new Set(Object.keys(new AppConfig()));
    expect([...documented].filter((key) => !known.has(key) && /^[A-Z_]+$/.test(key))).toEqual([]);
  });
});
