import { marketsFileProblems } from '../market/market-catalog';
import { usersFileProblems } from '../users/users-file';
import { SandboxConfig, TRADE_EVENT_NAMES } from './sandbox-config';
import { REMOVED_SANDBOX_SETTINGS } from './sandbox-tuning';
import { flag, integer, numberOf, oneOf, port, SettingReader, text } from './setting-readers';

export class SandboxConfigError extends Error {
  constructor(readonly problems: readonly string[]) {
    super(`Invalid sandbox configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'SandboxConfigError';
  }
}

/** Two weeks: sparse, the history of all markets stays within one budget of operations, so a start stays quick. */
const MAX_HISTORY_HOURS = 336;

type Environment = Readonly<Record<string, string | undefined>>;

const READERS: { readonly [K in keyof SandboxConfig]-?: SettingReader<NonNullable<SandboxConfig[K]>> } = {
  HOST: text(),
  SANDBOX_HOST: text(),
  SANDBOX_PORT: port(),
  SANDBOX_SEED: integer(0),
  SANDBOX_MARKETS_FILE: text(),
  SANDBOX_MARKET_COUNT: integer(1, 100_000),
  SANDBOX_USERS_FILE: text(),
  SANDBOX_FLOW_RATE: numberOf('orders per second', 0, 100_000),
  SANDBOX_HISTORY_HOURS: numberOf('hours', 0, MAX_HISTORY_HOURS),
  SANDBOX_HISTORY_RATE: numberOf('orders per second', 0, 100),
  SANDBOX_TRADE_EVENT: oneOf(TRADE_EVENT_NAMES),
  SANDBOX_RATE_LIMITS: flag(),
};

/** A broken file with hundreds of problems still makes a message one can read. */
const MAX_PROBLEMS_PER_FILE = 10;

const DATA_FILES = [
  { key: 'SANDBOX_MARKETS_FILE', problems: marketsFileProblems },
  { key: 'SANDBOX_USERS_FILE', problems: usersFileProblems },
] as const;

/**
 * Reads the sandbox's settings from the environment (empty values count as unset) and checks the
 * data files they name. Throws one SandboxConfigError naming every bad key and why.
 */
export function loadSandboxConfig(env: Environment = process.env): SandboxConfig {
  const config = new SandboxConfig();
  const problems: string[] = [];
  for (const key of Object.keys(READERS) as (keyof SandboxConfig)[]) {
    const raw = env[key]?.trim();
    if (raw === undefined || raw === '') continue;
    const reading = READERS[key](raw);
    if ('problem' in reading) problems.push(`${key}=${JSON.stringify(raw)}: ${reading.problem}`);
    else Object.assign(config, { [key]: reading.value });
  }
  for (const key of REMOVED_SANDBOX_SETTINGS)
    if ((env[key] ?? '').trim() !== '')
      problems.push(`${key}: no longer a setting, its value is built in; remove it`);
  if (config.SANDBOX_MARKET_COUNT !== undefined && config.SANDBOX_MARKETS_FILE)
    problems.push('SANDBOX_MARKET_COUNT and SANDBOX_MARKETS_FILE: choose one');
  for (const { key, problems: check } of DATA_FILES) {
    const path = config[key];
    if (path !== undefined) problems.push(...fileProblems(key, path, check));
  }
  if (problems.length > 0) throw new SandboxConfigError(problems);
  return config;
}

function fileProblems(key: string, path: string, check: (path: string) => readonly string[]): string[] {
  const shown = `${key}=${JSON.stringify(path)}`;
  const problems = check(path);
  const lines = problems.slice(0, MAX_PROBLEMS_PER_FILE).map((problem) => `${shown}: ${problem}`);
  if (problems.length > MAX_PROBLEMS_PER_FILE)
    lines.push(`${shown}: and ${problems.length - MAX_PROBLEMS_PER_FILE} more problems`);
  return lines;
}
