import { assetsFileProblems } from '../ingest/catalog/assets-file';
import { marketsFileProblems } from '../sandbox/market/market-catalog';
import { usersFileProblems } from '../sandbox/users/users-file';
import { AppConfig } from './app-config';
import { Role } from './role';

/** A broken file with hundreds of problems still makes a message one can read. */
const MAX_PROBLEMS_PER_FILE = 10;

interface FileSetting {
  readonly key: 'ASSETS_FILE' | 'SANDBOX_MARKETS_FILE' | 'SANDBOX_USERS_FILE';
  /** Whether this process reads the file: a role that does not use it does not need it mounted. */
  readonly readBy: (config: AppConfig) => boolean;
  readonly problems: (path: string) => readonly string[];
}

const ingests = (config: AppConfig) => config.ROLE === Role.All || config.ROLE === Role.Ingest;
/** As at the start: the sandbox runs alone, or in-process for an ingest without an exchange. */
const runsSandbox = (config: AppConfig) =>
  config.ROLE === Role.Sandbox || (ingests(config) && !config.UPSTREAM_BASE_URL);

const FILE_SETTINGS: readonly FileSetting[] = [
  { key: 'ASSETS_FILE', readBy: ingests, problems: assetsFileProblems },
  { key: 'SANDBOX_MARKETS_FILE', readBy: runsSandbox, problems: marketsFileProblems },
  { key: 'SANDBOX_USERS_FILE', readBy: runsSandbox, problems: usersFileProblems },
];

/**
 * Reads every data file the configuration names and this process uses, and returns what is wrong
 * with each (missing, unreadable, not JSON, invalid content), one line per problem, named by key.
 * The secrets' `<key>_FILE` settings are read with the configuration itself.
 */
export function fileSettingProblems(config: AppConfig): string[] {
  const lines: string[] = [];
  for (const setting of FILE_SETTINGS) {
    const path = config[setting.key];
    if (path === undefined || !setting.readBy(config)) continue;
    const problems = setting.problems(path);
    const shown = `${setting.key}=${JSON.stringify(path)}`;
    for (const problem of problems.slice(0, MAX_PROBLEMS_PER_FILE)) lines.push(`${shown}: ${problem}`);
    if (problems.length > MAX_PROBLEMS_PER_FILE)
      lines.push(`${shown}: and ${problems.length - MAX_PROBLEMS_PER_FILE} more problems`);
  }
  return lines;
}
