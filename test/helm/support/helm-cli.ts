import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { stringify } from 'yaml';

const run = promisify(execFile);

const PROJECT_ROOT = resolve(__dirname, '..', '..', '..');
export const CHART_DIR = join(PROJECT_ROOT, 'helm', 'market-data-gateway');

export interface HelmResult {
  readonly ok: boolean;
  readonly stdout: string;
  readonly stderr: string;
}

/** A value set: files of the chart's ci/ folder, then inline values on top, as `-f` files in that order. */
export interface ValueSet {
  readonly files?: readonly string[];
  readonly values?: Record<string, unknown>;
}

/**
 * The real helm binary, unpacked by scripts/helm-unpack.js, with its cache, config and data homes in
 * a private folder so that nothing of the user's helm setup leaks in or is changed.
 */
export class HelmCli {
  private inlineCount = 0;

  private constructor(
    readonly binary: string,
    private readonly home: string,
  ) {}

  static async start(): Promise<HelmCli> {
    const { stdout } = await run(process.execPath, [join(PROJECT_ROOT, 'scripts', 'helm-unpack.js')]);
    const home = await mkdtemp(join(tmpdir(), 'helm-home-'));
    return new HelmCli(stdout.trim(), home);
  }

  async close(): Promise<void> {
    await rm(this.home, { recursive: true, force: true });
  }

  lint(set: ValueSet): Promise<HelmResult> {
    return this.withValues(set, (args) => this.exec(['lint', CHART_DIR, '--strict', ...args]));
  }

  template(set: ValueSet, releaseName = 'demo', namespace = 'markets'): Promise<HelmResult> {
    return this.withValues(set, (args) =>
      this.exec(['template', releaseName, CHART_DIR, '--namespace', namespace, ...args]),
    );
  }

  async exec(args: readonly string[]): Promise<HelmResult> {
    const env = {
      PATH: process.env.PATH ?? '',
      HOME: this.home,
      HELM_CACHE_HOME: join(this.home, 'cache'),
      HELM_CONFIG_HOME: join(this.home, 'config'),
      HELM_DATA_HOME: join(this.home, 'data'),
      KUBECONFIG: join(this.home, 'no-kubeconfig'),
    };
    try {
      const { stdout, stderr } = await run(this.binary, [...args], { env, maxBuffer: 16 * 1024 * 1024 });
      return { ok: true, stdout, stderr };
    } catch (error) {
      const failed = error as { stdout?: string; stderr?: string; code?: unknown };
      if (typeof failed.code !== 'number') throw error;
      return { ok: false, stdout: failed.stdout ?? '', stderr: failed.stderr ?? '' };
    }
  }

  private async withValues(
    set: ValueSet,
    action: (args: string[]) => Promise<HelmResult>,
  ): Promise<HelmResult> {
    const args = (set.files ?? []).flatMap((file) => ['-f', join(CHART_DIR, 'ci', file)]);
    if (set.values) {
      const file = join(this.home, `inline-${++this.inlineCount}.yaml`);
      await writeFile(file, stringify(set.values));
      args.push('-f', file);
    }
    return action(args);
  }
}
