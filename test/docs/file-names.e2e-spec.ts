import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { basename, join } from 'node:path';

const ROOT = join(__dirname, '..', '..');

/** Nest's building blocks, each with the decorator that makes one: their files carry the kind as a suffix. */
const NEST_KINDS: Record<string, RegExp> = {
  module: /^@Module\(/m,
  controller: /^@Controller\(/m,
  guard: /\bimplements CanActivate\b/,
  filter: /^@Catch\(/m,
};

/**
 * One naming convention across both products: kebab-case names, a dot suffix only for Nest's
 * building blocks (`orders.controller.ts`) and for tests (`.spec.ts`, `.property.spec.ts`,
 * `.e2e-spec.ts`); every other file names its role as the last word (`depth-codec.ts`).
 */
const FILE_NAME = new RegExp(
  `^[a-z0-9]+(?:-[a-z0-9]+)*(?:\\.(?:${Object.keys(NEST_KINDS).join('|')}))?(?:\\.(?:spec|property\\.spec|e2e-spec))?\\.ts$`,
);

const sources = execFileSync('git', ['ls-files', '-co', '--exclude-standard', '*.ts'], {
  cwd: ROOT,
  encoding: 'utf8',
})
  .split('\n')
  .filter((path) => /^(?:src|test|packages\/[^/]+\/(?:src|test))\//.test(path));

describe('file names', () => {
  it('finds the sources of both products', () => {
    expect(sources).toContain('src/main.ts');
    expect(sources).toContain('packages/sandbox-exchange/src/index.ts');
  });

  it('are kebab-case, with a dot suffix only for a Nest building block or a test', () => {
    expect(sources.filter((path) => !FILE_NAME.test(basename(path)))).toEqual([]);
  });

  it.each(Object.entries(NEST_KINDS))(
    'give the .%s.ts suffix to exactly the files that declare one',
    (kind, mark) => {
      const misnamed = sources
        .filter((path) => !/\.(?:spec|e2e-spec)\.ts$/.test(path))
        .filter((path) => mark.test(readFileSync(join(ROOT, path), 'utf8')) !== path.endsWith(`.${kind}.ts`));
      expect(misnamed).toEqual([]);
    },
  );
});
