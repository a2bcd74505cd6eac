import 'reflect-metadata';
import { ingests } from './app.module';
import { AppConfig } from './config/app-config';
import { ConfigValidationError, loadConfig } from './config/load-config';
import { Role } from './config/role';
import { describeSandbox, RunningSandbox, startSandbox } from './sandbox/start-sandbox';
import { startApp } from './start-app';
import { resolveUpstream } from './upstream/upstream-settings';

function readConfig(): AppConfig {
  try {
    return loadConfig(process.env);
  } catch (error) {
    if (error instanceof ConfigValidationError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
}

async function main(): Promise<void> {
  const config = readConfig();
  let sandbox: RunningSandbox | undefined;
  if (config.ROLE === Role.Sandbox || (ingests(config.ROLE) && !config.UPSTREAM_BASE_URL)) {
    sandbox = await startSandbox(config);
    process.stdout.write(`${describeSandbox(sandbox)}\n`);
    if (config.ROLE === Role.Sandbox) return;
  }
  const upstream = ingests(config.ROLE) ? resolveUpstream(config, sandbox) : undefined;
  const app = await startApp(config, upstream);
  process.stdout.write(`Gateway (${config.ROLE}) listening on ${app.url}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`Fatal: ${(error as Error).stack ?? String(error)}\n`);
  process.exit(1);
});
