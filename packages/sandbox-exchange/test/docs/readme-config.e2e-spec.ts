import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SandboxConfig } from '../../src/config/sandbox-config';

describe("the package README's configuration table", () => {
  const readme = readFileSync(join(__dirname, '..', '..', 'README.md'), 'utf8');
  const table = readme.slice(
    readme.indexOf('<!-- config-table:start -->'),
    readme.indexOf('<!-- config-table:end -->'),
  );
  const documented = new Set([...table.matchAll(/`([A-Z][A-Z0-9_]+)`/g)].map((match) => match[1]));

  it('is there', () => {
    expect(table).toContain('| Setting | Default | Description |');
  });

  it('documents every setting of SandboxConfig', () => {
    const missing = Object.keys(new SandboxConfig()).filter((key) => !documented.has(key));
    expect(missing).toEqual([]);
  });

  it('lists the settings in the order of SandboxConfig', () => {
    const rows = table.split('\n').filter((line) => line.startsWith('| `'));
    const listed = rows.flatMap((row) =>
      [...row.split('|')[1].matchAll(/`([A-Z][A-Z0-9_]+)`/g)].map((match) => match[1]),
    );
    expect(listed).toEqual(Object.keys(new SandboxConfig()));
  });

  it('documents no setting that does not exist', () => {
    const known = new Set(Object.keys(new SandboxConfig()));
    expect([...documented].filter((key) => !known.has(key) && /^[A-Z_]+$/.test(key))).toEqual([]);
  });
});
