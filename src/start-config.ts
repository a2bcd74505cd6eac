import { loadSandboxConfig, SandboxConfig, SandboxConfigError } from 'sandbox-exchange';
import { AppConfig } from './config/app-config';
import { FileSetting } from './config/file-settings';
import { ConfigValidationError, loadConfig } from './config/load-config';
import { ingests, Role, runsSandbox } from './config/role';
import { assetsFileProblems } from './ingest/catalog/assets-file';

/**
 * The data files the gateway's configuration names, for loadConfig to check at boot. Each format
 * belongs to the layer that reads the file, which config must not import; the start brings them together.
 */
export const DATA_FILES: readonly FileSetting[] = [
  { key: 'ASSETS_FILE', readBy: (config) => ingests(config.ROLE), problems: assetsFileProblems },
];

const LOOPBACK = '127.0.0.1';

export interface StartConfig {
  readonly gateway: AppConfig;
  /** When this process runs the sandbox: alone, or in-process for an ingest that asked for it. */
  readonly sandbox?: SandboxConfig;
}

/**
 * The gateway's settings and, when this process runs the sandbox, the sandbox's. Throws one
 * ConfigValidationError naming every bad key of both, so that one start tells every mistake.
 */
export function loadStartConfig(env: Readonly<Record<string, string | undefined>>): StartConfig {
  const problems: string[] = [];
  let gateway: AppConfig | undefined;
  let sandbox: SandboxConfig | undefined;
  try {
    gateway = loadConfig(env, DATA_FILES);
  } catch (error) {
    if (!(error instanceof ConfigValidationError)) throw error;
    problems.push(...error.problems);
  }
  const role = gateway?.ROLE ?? (env.ROLE?.trim() || Role.All);
  const asked = gateway ? gateway.SANDBOX : /^(true|1)$/i.test(env.SANDBOX?.trim() ?? '');
  if (runsSandbox(role, asked)) {
    try {
      const loaded = loadSandboxConfig(env);
      // In-process, the sandbox's controls (faults, flow, private REST) stay on this machine unless opened.
      sandbox = role === Role.Sandbox ? loaded : { ...loaded, SANDBOX_HOST: loaded.SANDBOX_HOST ?? LOOPBACK };
    } catch (error) {
      if (!(error instanceof SandboxConfigError)) throw error;
      problems.push(...error.problems);
    }
  }
  if (problems.length > 0 || !gateway) throw new ConfigValidationError(problems);
  return { gateway, ...(sandbox ? { sandbox } : {}) };
}
