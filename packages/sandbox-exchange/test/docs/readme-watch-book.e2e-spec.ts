import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { RunningSandbox } from '../../src/start-sandbox';
import { startTestSandbox } from '../support/start-test-sandbox';

/** The package's folder, where a reader saves and runs the script. */
const PACKAGE = join(__dirname, '..', '..');

/** The node_modules folder that holds the official SignalR client, wherever npm installed it. */
const MODULES = join(dirname(require.resolve('@microsoft/signalr/package.json')), '..', '..');

/** The package README's script, pointed at a test sandbox. */
function readmeScript(port: number): string {
  const readme = readFileSync(join(PACKAGE, 'README.md'), 'utf8');
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
    // The script runs as a reader would run it from the package's folder, finding the installed client.
    const child = spawn(process.execPath, [script, 'eth_usdt'], {
      cwd: PACKAGE,
      env: { ...process.env, NODE_PATH: MODULES },
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
