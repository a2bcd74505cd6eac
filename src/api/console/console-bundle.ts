import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { CachedBody } from '../http/cached-body';

/**
 * Where `npm run build` writes the pages' bundle (`scripts/build-console.js`): `dist/console` of
 * the project, reached from this file's place in `src/` (tests) and in `dist/` alike.
 */
export const BUNDLE_DIR = resolve(__dirname, '..', '..', '..', 'dist', 'console');

/** What the build writes beside the files: their content-hashed names. */
export interface BundleManifest {
  readonly script: string;
  readonly style: string;
  /** Scripts the page's script imports, some only when it needs them (the candle chart). */
  readonly chunks?: readonly string[];
}

const CONTENT_TYPES: Record<string, string> = {
  js: 'text/javascript; charset=utf-8',
  css: 'text/css; charset=utf-8',
};

/**
 * The pages' script, its chunks and style sheet, read once: the names carry a hash of the content, so a
 * browser may keep each for good, and a new build is new names.
 */
export class ConsoleBundle {
  private constructor(
    readonly manifest: BundleManifest,
    private readonly files: ReadonlyMap<string, CachedBody>,
  ) {}

  /** The bundle in `dir`, or undefined when it was not built. */
  static read(dir: string = BUNDLE_DIR): ConsoleBundle | undefined {
    let manifest: BundleManifest;
    try {
      manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as BundleManifest;
    } catch {
      return undefined;
    }
    const files = new Map<string, CachedBody>();
    for (const name of [manifest.script, manifest.style, ...(manifest.chunks ?? [])]) {
      const type = CONTENT_TYPES[name.slice(name.lastIndexOf('.') + 1)];
      if (!type || !/^[\w.-]+$/.test(name)) throw new Error(`console bundle: unexpected file ${name}`);
      files.set(name, new CachedBody(readFileSync(join(dir, name)), type));
    }
    return new ConsoleBundle(manifest, files);
  }

  file(name: string): CachedBody | undefined {
    return this.files.get(name);
  }
}
