import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RunningSandbox } from '../../src/sandbox/start-sandbox';
import { startTestSandbox } from '../support/start-test-sandbox';

const ROOT = join(__dirname, '..', '..');

/** The README's script, pointed at a test sandbox. */
function readmeScript(port: number): string {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const block = readme.slice(
    readme.indexOf('<!-- watch-book:start -->'),
    readme.indexOf('<!-- watch-book:end -->'),
  );
  const code = block.slice(block.indexOf('```js') + 5, block.lastIndexOf('```'));
  expect(code.split('\n').filter((line) => line.trim()).length).toBeLessThanOrEqual(11);
  return code.replace('127.0.0.1:4000', `127.0.0.1:${port}`);
}

describe('the README script that watches the Book stream', () => {
  let sandbox: RunningSandbox;
  const folder = mkdtempSync(join(tmpdir(), 'watch-book-'));
  const script = join(folder, 'watch-book.js');

  beforeAll(async () => {
    sandbox = await startTestSandbox({ SANDBOX_FLOW_RATE: '50' });
  });
  afterAll(async () => {
    await sandbox.close();
    rmSync(folder, { recursive: true, force: true });
  });

  it('prints the snapshot and then deltas', async () => {
    writeFileSync(script, readmeScript(sandbox.port));
    // The script runs as a reader would run it from this folder, so it finds the project's packages.
    const child = spawn(process.execPath, [script, 'eth_usdt'], {
      cwd: ROOT,
      env: { ...process.env, NODE_PATH: join(ROOT, 'node_modules') },
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const deadline = Date.now() + 15_000;
    while (!/^delta \d+/m.test(output) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    child.kill();
    const lines = output.split('\n').filter((line) => /^(snapshot|delta) /.test(line));
    expect(lines[0]).toMatch(/^snapshot \d+ \d{2,} bids \d{2,} asks$/);
    expect(output).toMatch(/^delta \d+ \d+ bids \d+ asks$/m);
  });
});
