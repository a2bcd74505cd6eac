import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The version in package.json, at the root above `src/` and `dist/` alike. */
export function packageVersion(): string {
  const manifest = JSON.parse(readFileSync(join(__dirname, '..', '..', 'package.json'), 'utf8')) as {
    version: string;
  };
  return manifest.version;
}
