import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import puppeteer, { Browser, Page } from 'puppeteer-core';

/** Debian's chromium package, which `.ci/run` installs; `CHROMIUM_PATH` names another build. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** A headless Chromium; a missing browser fails the suite with what to install, never skips it. */
export async function launchBrowser(): Promise<Browser> {
  if (!existsSync(CHROMIUM_PATH))
    throw new Error(
      `no Chromium at ${CHROMIUM_PATH}: install Debian's chromium package (apt-get install chromium, as .ci/run does) or set CHROMIUM_PATH`,
    );
  return puppeteer.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    // CI runs as root, where Chromium's sandbox cannot start; /dev/shm is small in containers.
    args: ['--no-sandbox', '--disable-dev-shm-usage', '--disable-gpu'],
  });
}

/** What went wrong in a page: console errors (CSP violations among them), uncaught errors, failed requests. */
export function pageProblems(page: Page): string[] {
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`page error: ${(error as Error).message}`));
  page.on('requestfailed', (request) => {
    // A feed cut by a navigation or a closing page is not a failure of the page.
    if (!request.url().includes('/feed'))
      problems.push(`request failed: ${request.url()} ${request.failure()?.errorText}`);
  });
  return problems;
}

/** A new page of `browser` at `url` in a `width` x `height` viewport, with its problems collected. */
export async function openPage(
  browser: Browser,
  url: string,
  viewport: { readonly width: number; readonly height: number },
): Promise<{ page: Page; problems: string[] }> {
  const page = await browser.newPage();
  await page.setViewport(viewport);
  const problems = pageProblems(page);
  await page.goto(url, { waitUntil: 'domcontentloaded' });
  return { page, problems };
}

/** The text of the cell `field` of the market's row, or undefined while there is no such row. */
export async function cellText(page: Page, market: string, field: string): Promise<string | undefined> {
  return page.$$eval(
    `tr[data-market="${market}"] td[data-field="${field}"]`,
    (cells) => cells[0]?.textContent ?? undefined,
  );
}

/** Polls `check` every 20 ms until it holds; fails after `timeoutMs` naming `what`. */
export async function waitFor(
  what: string,
  timeoutMs: number,
  check: () => Promise<boolean>,
): Promise<number> {
  const started = Date.now();
  for (;;) {
    if (await check()) return Date.now() - started;
    if (Date.now() - started > timeoutMs) throw new Error(`${what}: not seen within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const ROOT = join(__dirname, '..', '..');

/**
 * Bundles the pages (as `npm run build` does) when the bundle is missing or older than a source of
 * it, so that the suites run from a fresh checkout; after a build they find it current.
 */
export function ensurePagesBuilt(): void {
  const manifest = join(ROOT, 'dist', 'console', 'manifest.json');
  const sources = join(ROOT, 'src', 'console-page');
  const builtAt = existsSync(manifest) ? statSync(manifest).mtimeMs : 0;
  const newest = Math.max(...readdirSync(sources).map((name) => statSync(join(sources, name)).mtimeMs));
  if (builtAt >= newest) return;
  execFileSync(process.execPath, [join(ROOT, 'scripts', 'build-console.js')], {
    cwd: ROOT,
    stdio: 'inherit',
  });
}
