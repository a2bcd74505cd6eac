import { AppConfig } from './config/app-config';
import { FileSetting } from './config/file-settings';
import { Role } from './config/role';
import { assetsFileProblems } from './ingest/catalog/assets-file';
import { marketsFileProblems } from './sandbox/market/market-catalog';
import { usersFileProblems } from './sandbox/users/users-file';

const ingests = (config: AppConfig) => config.ROLE === Role.All || config.ROLE === Role.Ingest;
/** As at the start: the sandbox runs alone, or in-process for an ingest without an exchange. */
const runsSandbox = (config: AppConfig) =>
  config.ROLE === Role.Sandbox || (ingests(config) && !config.UPSTREAM_BASE_URL);

/**
 * The data files the configuration names, for loadConfig to check at boot. Each format belongs to
 * the layer that reads the file, which config must not import; the start brings them together.
 */
export const DATA_FILES: readonly FileSetting[] = [
  { key: 'ASSETS_FILE', readBy: ingests, problems: assetsFileProblems },
  { key: 'SANDBOX_MARKETS_FILE', readBy: runsSandbox, problems: marketsFileProblems },
  { key: 'SANDBOX_USERS_FILE', readBy: runsSandbox, problems: usersFileProblems },
];
