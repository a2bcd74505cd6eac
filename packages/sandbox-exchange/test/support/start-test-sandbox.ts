import { loadSandboxConfig } from '../../src/config/load-sandbox-config';
import { SandboxTuning } from '../../src/config/sandbox-tuning';
import { RunningSandbox, startSandbox } from '../../src/start-sandbox';

/**
 * A sandbox exchange on a free loopback port, with one hour of history so that it starts fast.
 * `env` overrides any setting, e.g. `{ SANDBOX_FLOW_RATE: '0' }` for a quiet market; `tuning` the
 * built-in values, e.g. a short keep-alive.
 */
export async function startTestSandbox(
  env: Record<string, string> = {},
  tuning: Partial<SandboxTuning> = {},
): Promise<RunningSandbox> {
  const config = loadSandboxConfig({
    HOST: '127.0.0.1',
    SANDBOX_PORT: '0',
    SANDBOX_HISTORY_HOURS: '1',
    ...env,
  });
  return startSandbox(config, false, tuning);
}
