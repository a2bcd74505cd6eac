import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REQUIRED_NODE_MAJOR } from '../../src/lifecycle/node-version';

const root = join(__dirname, '..', '..');
const read = (file: string): string => readFileSync(join(root, file), 'utf8');

describe('the Node.js release', () => {
  const release = read('.node-version').trim();

  it('is one the image builds and runs on', () => {
    expect(read('Dockerfile')).toMatch(
      new RegExp(`^ARG NODE_VERSION=${release.replace(/\./g, '\\.')}$`, 'm'),
    );
    expect(read('Dockerfile').match(/^FROM node:\$\{NODE_VERSION\}-/gm)).toHaveLength(3);
  });

  it("is within package.json's engines, on an LTS line", () => {
    const major = Number(release.split('.')[0]);
    const engines = JSON.parse(read('package.json')).engines.node as string;
    expect(engines).toBe(`>=${major}`);
    expect(major % 2).toBe(0);
  });

  it('is the line the service itself asks for at start', () => {
    expect(REQUIRED_NODE_MAJOR).toBe(Number(release.split('.')[0]));
  });
});

describe('every npm script on an older Node.js', () => {
  const OLDER = 'v20.20.2';
  let bin: string;
  let scripts: string[];

  beforeAll(() => {
    // A `node` that is this one but says it is an older release, first on the PATH of npm and its scripts.
    bin = mkdtempSync(join(tmpdir(), 'mdg-old-node-'));
    const release = join(bin, 'older-release.js');
    writeFileSync(
      release,
      `Object.defineProperty(process, 'version', { value: '${OLDER}' });\n` +
        `Object.defineProperty(process.versions, 'node', { value: '${OLDER.slice(1)}' });\n`,
    );
    writeFileSync(join(bin, 'node'), `#!/bin/sh\nexec "${process.execPath}" --require "${release}" "$@"\n`, {
      mode: 0o755,
    });
    scripts = Object.keys(JSON.parse(read('package.json')).scripts as Record<string, string>);
  });

  afterAll(() => rmSync(bin, { recursive: true, force: true }));

  it('stops before any work with one line naming the release needed and the one found', async () => {
    const built = statSync(join(root, 'dist', 'main.js')).mtimeMs;
    const major = read('.node-version').trim().split('.')[0];
    for (const script of scripts) {
      const { code, stdout, stderr } = await runNpm(['run', script], bin);
      // npm's own lines (`> package@version script`, `> command`) frame the script's output.
      const printed = `${stdout}${stderr}`
        .split('\n')
        .filter((line) => line !== '' && !line.startsWith('> '));
      expect({ script, code, printed }).toEqual({
        script,
        code: 1,
        printed: [
          `market-data-gateway needs Node.js ${major} or later (.node-version: ${read('.node-version').trim()}); this is ${OLDER}`,
        ],
      });
    }
    expect(statSync(join(root, 'dist', 'main.js')).mtimeMs).toBe(built);
  });
});

function runNpm(
  args: string[],
  bin: string,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    execFile(
      'npm',
      args,
      {
        cwd: root,
        env: {
          PATH: `${bin}:${process.env.PATH}`,
          HOME: process.env.HOME,
          npm_config_update_notifier: 'false',
        },
      },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : null) : 0;
        if (error && code === null) reject(error);
        else resolve({ code, stdout, stderr });
      },
    );
  });
}
