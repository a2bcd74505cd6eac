import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestStack, TestStack } from '../support/start-test-stack';

const ROOT = join(__dirname, '..', '..');
const BIN = join(ROOT, 'node_modules', '.bin');

interface Run {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

function run(binary: string, args: string[]): Promise<Run> {
  return new Promise((resolve) => {
    execFile(join(BIN, binary), args, { cwd: ROOT, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) =>
      resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

interface SpectralFinding {
  readonly code: string;
  /** 0 error, 1 warning, 2 information, 3 hint. */
  readonly severity: number;
  readonly message: string;
  readonly path: string[];
}

/** The contact a deployment names: Spectral's AsyncAPI rules want its name, page and address. */
const CONTACT = {
  API_CONTACT_EMAIL: 'api@exchange.example',
  API_CONTACT_URL: 'https://exchange.example/api',
};

describe('the served API documents, by the outside linters', () => {
  let stack: TestStack;
  let folder: string;
  let openApi: string;
  let asyncApi: string;

  beforeAll(async () => {
    stack = await startTestStack({ redis: false, credentials: false, app: CONTACT });
    folder = mkdtempSync(join(tmpdir(), 'api-documents-'));
    openApi = join(folder, 'openapi.json');
    asyncApi = join(folder, 'asyncapi.json');
    writeFileSync(openApi, await (await fetch(`${stack.app.url}/docs-json`)).text());
    writeFileSync(asyncApi, await (await fetch(`${stack.app.url}/docs/asyncapi.json`)).text());
  });
  afterAll(async () => {
    await stack.close();
    rmSync(folder, { recursive: true, force: true });
  });

  it("pass Redocly's recommended rules with no error and no warning", async () => {
    const result = await run('redocly', [
      'lint',
      openApi,
      '--config',
      join(ROOT, 'redocly.yaml'),
      '--format=json',
    ]);
    const report = JSON.parse(result.stdout) as { totals: { errors: number; warnings: number } };
    const { errors, warnings } = report.totals;
    // The whole report on failure: the problems with their places.
    expect({ errors, warnings, report: errors + warnings > 0 ? report : undefined }).toEqual({
      errors: 0,
      warnings: 0,
      report: undefined,
    });
    expect(result.code).toBe(0);
  });

  it("pass Spectral's OpenAPI and AsyncAPI rule sets with no error and no warning", async () => {
    const result = await run('spectral', [
      'lint',
      openApi,
      asyncApi,
      '--ruleset',
      join(ROOT, '.spectral.yaml'),
      '--format',
      'json',
      '--quiet',
    ]);
    const findings = (result.stdout.trim() === '' ? [] : JSON.parse(result.stdout)) as SpectralFinding[];
    expect(result.stderr).toBe('');
    const serious = findings.filter((finding) => finding.severity <= 1);
    expect(
      serious.map((finding) => `${finding.code}: ${finding.message} at ${finding.path.join('.')}`),
    ).toEqual([]);
  });

  it('name the contact the settings give, in both documents', async () => {
    const contact = {
      name: "the exchange's API team",
      email: CONTACT.API_CONTACT_EMAIL,
      url: CONTACT.API_CONTACT_URL,
    };
    for (const path of ['/docs-json', '/docs/asyncapi.json']) {
      const document = (await (await fetch(`${stack.app.url}${path}`)).json()) as {
        info: { contact: unknown };
      };
      expect({ path, contact: document.info.contact }).toEqual({ path, contact });
    }
  });
});
