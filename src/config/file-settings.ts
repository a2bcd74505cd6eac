import { AppConfig } from './app-config';

/** A broken file with hundreds of problems still makes a message one can read. */
const MAX_PROBLEMS_PER_FILE = 10;

/** A data file the configuration names, with the roles that read it and the check of its content. */
export interface FileSetting {
  readonly key: 'ASSETS_FILE';
  /** Whether this process reads the file: a role that does not use it does not need it mounted. */
  readonly readBy: (config: AppConfig) => boolean;
  readonly problems: (path: string) => readonly string[];
}

/**
 * Reads every data file of `settings` that the configuration names and this process uses, and
 * returns what is wrong with each (missing, unreadable, not JSON, invalid content), one line per
 * problem, named by key. The secrets' `<key>_FILE` settings are read with the configuration itself.
 */
export function fileSettingProblems(config: AppConfig, settings: readonly FileSetting[]): string[] {
  const lines: string[] = [];
  for (const setting of settings) {
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
