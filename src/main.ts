import 'reflect-metadata';
import { AppConfig } from './config/app-config';
import { ConfigValidationError, loadConfig } from './config/load-config';
import { Role } from './config/role';
import { describeSandbox, startSandbox } from './sandbox/start-sandbox';

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
  if (config.ROLE === Role.Sandbox) {
    const sandbox = await startSandbox(config);
    process.stdout.write(`${describeSandbox(sandbox)}\n`);
    return;
  }
  process.stderr.write(`ROLE=${config.ROLE} is not available yet\n`);
  process.exit(1);
}

main().catch((error: unknown) => {
  process.stderr.write(`Fatal: ${(error as Error).stack ?? String(error)}\n`);
  process.exit(1);
});
