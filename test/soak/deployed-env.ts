import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const DOCKERFILE = join(__dirname, '..', '..', 'Dockerfile');

/**
 * The environment the image gives the service: the `ENV` instructions of the Dockerfile's last stage.
 * The soak runs the process with them, so that it measures the runtime as deployed (heap sizing
 * among others) rather than Node's defaults for the machine it happens to run on.
 */
export function deployedRuntimeEnv(dockerfile = readFileSync(DOCKERFILE, 'utf8')): Record<string, string> {
  const lines = dockerfile.split('\n');
  const stageStarts = lines.flatMap((line, index) => (/^FROM\s/i.test(line) ? [index] : []));
  const lastStage = stageStarts[stageStarts.length - 1] ?? -1;
  const env: Record<string, string> = {};
  for (const line of lines.slice(lastStage + 1)) {
    const instruction = /^ENV\s+(.*)$/i.exec(line.trim());
    if (!instruction) continue;
    for (const [, name, quoted, bare] of instruction[1].matchAll(
      /([A-Za-z_][A-Za-z0-9_]*)=(?:"([^"]*)"|(\S*))/g,
    ))
      env[name] = quoted ?? bare;
  }
  return env;
}
