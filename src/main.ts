import 'reflect-metadata';
import type { LogLevel as NestLogLevel } from '@nestjs/common';
import { ingests } from './app.module';
import { AppConfig, LogLevel } from './config/app-config';
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

/** Nest's levels for LOG_LEVEL: each level with every more severe one. */
function nestLogLevels(level: LogLevel): NestLogLevel[] | false {
  const ordered: [LogLevel, NestLogLevel][] = [
    ['fatal', 'fatal'],
    ['error', 'error'],
    ['warn', 'warn'],
    ['info', 'log'],
    ['debug', 'debug'],
    ['trace', 'verbose'],
  ];
  if (level === 'silent') return false;
  const upTo = ordered.findIndex(([name]) => name === level);
  return ordered.slice(0, upTo + 1).map(([, nest]) => nest);
}

async function main(): Promise<void> {
  const config = readConfig();
  let sandbox: RunningSandbox | undefined;
  if (config.ROLE === Role.Sandbox || (ingests(config.ROLE) && !config.UPSTREAM_BASE_URL)) {
    sandbox = await startSandbox(config, nestLogLevels(config.LOG_LEVEL));
    process.stdout.write(`${describeSandbox(sandbox)}\n`);
    if (config.ROLE === Role.Sandbox) return;
  }
  const upstream = ingests(config.ROLE) ? resolveUpstream(config, sandbox) : undefined;
  const app = await startApp(config, upstream, nestLogLevels(config.LOG_LEVEL));
  process.stdout.write(`Gateway (${config.ROLE}) listening on ${app.url}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`Fatal: ${(error as Error).stack ?? String(error)}\n`);
  process.exit(1);
});
