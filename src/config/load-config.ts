import { plainToInstance } from 'class-transformer';
import { validateSync, ValidationError } from 'class-validator';
import { readFileSync } from 'node:fs';
import { AppConfig, FILE_KEYS, SECRET_KEYS, usesRedis } from './app-config';
import { FileSetting, fileSettingProblems } from './file-settings';
import { removedSettingProblems } from './removed-settings';
import { ingests, Role } from './role';

export class ConfigValidationError extends Error {
  constructor(readonly problems: readonly string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigValidationError';
  }
}

type Environment = Record<string, string | undefined>;

/**
 * Reads the configuration from environment variables. Empty values count as unset. A secret may
 * come from a file instead (`UPSTREAM_PASSWORD_FILE=/run/secrets/password`), its content trimmed.
 * The data files of `dataFiles` that the process uses are read and validated too: the start passes
 * DATA_FILES (ASSETS_FILE). A variable earlier versions read and this one does not is a problem too.
 * Throws one ConfigValidationError that names every bad key and why, never a secret's value.
 */
export function loadConfig(
  env: Environment = process.env,
  dataFiles: readonly FileSetting[] = [],
): AppConfig {
  const known = Object.keys(new AppConfig());
  const plain: Record<string, string> = {};
  for (const key of known) {
    const value = env[key];
    if (value !== undefined && value.trim() !== '') plain[key] = value.trim();
  }
  const fileProblems = readSecretFiles(plain);
  const config = plainToInstance(AppConfig, plain, { exposeDefaultValues: true });
  const problems = validateSync(config, { forbidUnknownValues: true }).map((error) => describe(error, plain));
  problems.push(
    ...fileProblems,
    ...removedSettingProblems(env),
    ...crossFieldProblems(config),
    ...fileSettingProblems(config, dataFiles),
  );
  if (problems.length > 0) throw new ConfigValidationError(problems);
  return config;
}

/** Puts the content of each `<key>_FILE` into `plain` as `<key>`; returns what went wrong. */
function readSecretFiles(plain: Record<string, string>): string[] {
  const problems: string[] = [];
  for (const key of FILE_KEYS) {
    const path = plain[`${key}_FILE`];
    if (path === undefined) continue;
    const shown = `${key}_FILE=${JSON.stringify(path)}`;
    if (plain[key] !== undefined) {
      problems.push(`${key} and ${key}_FILE: set one or the other`);
      continue;
    }
    let content: string;
    try {
      content = readFileSync(path, 'utf8').trim();
    } catch (error) {
      const { code, message } = error as NodeJS.ErrnoException;
      problems.push(`${shown}: cannot be read (${code ?? message})`);
      continue;
    }
    if (content === '') problems.push(`${shown}: the file is empty`);
    else plain[key] = content;
  }
  return problems;
}

function describe(error: ValidationError, plain: Record<string, string>): string {
  const raw = plain[error.property];
  const shown = SECRET_KEYS.has(error.property)
    ? '<redacted>'
    : JSON.stringify(withoutUrlPassword(raw ?? null));
  // A rule gives each of its checks the same message; a value failing several gets it once.
  const reasons = [...new Set(Object.values(error.constraints ?? {}))].join('; ');
  return `${error.property}=${shown}: ${reasons}`;
}

/** A URL's password never appears in a message, whichever setting holds the URL. */
function withoutUrlPassword(value: string | null): string | null {
  return value?.replace(/(\/\/[^/?#@\s]*?:)[^/?#\s]*@/, '$1<redacted>@') ?? null;
}

function crossFieldProblems(config: AppConfig): string[] {
  const problems: string[] = [];
  if (Boolean(config.UPSTREAM_EMAIL) !== Boolean(config.UPSTREAM_PASSWORD)) {
    problems.push('UPSTREAM_EMAIL and UPSTREAM_PASSWORD: set both or neither');
  }
  if (!config.UPSTREAM_BASE_URL && (config.UPSTREAM_AUTH_URL || config.UPSTREAM_WS_URL)) {
    problems.push('UPSTREAM_AUTH_URL/UPSTREAM_WS_URL: need UPSTREAM_BASE_URL as well');
  }
  problems.push(...exchangeProblems(config));
  if ((config.ROLE === Role.Api || config.ROLE === Role.Ingest) && !usesRedis(config)) {
    problems.push(
      `ROLE=${config.ROLE}: needs REDIS_URL (or REDIS_SENTINELS), through which the api and ingest roles share state`,
    );
  }
  if (config.REDIS_CLUSTER && !config.REDIS_URL)
    problems.push('REDIS_CLUSTER: needs REDIS_URL, a node of the cluster');
  if (config.REDIS_SENTINELS && config.REDIS_CLUSTER)
    problems.push(
      'REDIS_SENTINELS and REDIS_CLUSTER: a Redis Cluster fails over by itself; set one or the other',
    );
  if (config.REDIS_SENTINEL_PASSWORD && !config.REDIS_SENTINELS)
    problems.push('REDIS_SENTINEL_PASSWORD: needs REDIS_SENTINELS');
  if (config.CONSOLE_PORT !== undefined && config.CONSOLE_PORT !== 0 && config.CONSOLE_PORT === config.PORT)
    problems.push('CONSOLE_PORT: must differ from PORT (unset serves the console on PORT)');
  return problems;
}

/** An ingesting role reads the exchange at UPSTREAM_BASE_URL, or the sandbox when asked: never by default. */
function exchangeProblems(config: AppConfig): string[] {
  if (config.ROLE === Role.Sandbox) return [];
  if (!ingests(config.ROLE))
    return config.SANDBOX
      ? [
          `SANDBOX=true: the sandbox runs in a role that ingests (all or ingest), not ROLE=${withoutUrlPassword(config.ROLE)}`,
        ]
      : [];
  if (config.SANDBOX && config.UPSTREAM_BASE_URL)
    return [
      'SANDBOX=true and UPSTREAM_BASE_URL: set one or the other (the sandbox is an exchange of its own)',
    ];
  if (!config.SANDBOX && !config.UPSTREAM_BASE_URL)
    return [
      `UPSTREAM_BASE_URL: not set; ROLE=${config.ROLE} ingests from the exchange at this URL ` +
        '(or set SANDBOX=true for a trial on the built-in sandbox exchange, with simulated prices)',
    ];
  return [];
}
