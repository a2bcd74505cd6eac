import { FormatName } from './audit-format';
import { AuditSettings } from './run-audit';

export interface AuditCommand extends AuditSettings {
  readonly json: boolean;
}

export const USAGE = `usage: npm run listing-audit -- <base URL> [options]

  <base URL>            the prefix the format's paths follow, e.g. https://api.example.com/api/v1
                        (this gateway: http://host:3000 for listing, .../cmc, .../coingecko)
  --format F            listing (default) | cmc | coingecko
  --markets N           read books and trades of the first N markets by name (default: all)
  --interval S          seconds between the two polls (default 60; 0 polls once)
  --timeout S           seconds an endpoint has to answer in full (default 10)
  --stale-after S       a book or X-Data-Age-Ms older than this warns (default 300)
  --attempts N          reads of trades around the 24-hour figures before "inconclusive" (default 3)
  --json                the results as JSON instead of the report
  --help                this text`;

const FORMATS: readonly FormatName[] = ['listing', 'cmc', 'coingecko'];

export class UsageError extends Error {}

/** The command line, checked: every problem is a `UsageError` naming the option and the rule. */
export function parseAuditOptions(argv: readonly string[]): AuditCommand | 'help' {
  let baseUrl: string | undefined;
  const values = new Map<string, string>();
  let json = false;
  for (let index = 0; index < argv.length; index++) {
    const arg = argv[index];
    if (arg === '--help' || arg === '-h') return 'help';
    if (arg === '--json') json = true;
    else if (arg.startsWith('--')) {
      const [name, inline] = arg.slice(2).split(/=(.*)/s, 2);
      if (!['format', 'markets', 'interval', 'timeout', 'stale-after', 'attempts'].includes(name))
        throw new UsageError(`unknown option --${name}`);
      const value = inline ?? argv[++index];
      if (value === undefined) throw new UsageError(`--${name} needs a value`);
      values.set(name, value);
    } else if (baseUrl === undefined) baseUrl = arg;
    else throw new UsageError(`one base URL only, got also ${arg}`);
  }
  if (baseUrl === undefined) throw new UsageError('the base URL is missing');
  if (!/^https?:\/\/[^/]/.test(baseUrl))
    throw new UsageError(`the base URL must be http(s)://..., got ${baseUrl}`);
  const format = values.get('format') ?? 'listing';
  if (!FORMATS.includes(format as FormatName))
    throw new UsageError(`--format must be one of ${FORMATS.join(', ')}, got ${format}`);
  return {
    baseUrl: baseUrl.replace(/\/+$/, ''),
    format: format as FormatName,
    markets: count(values, 'markets', 0, 0),
    intervalMs: seconds(values, 'interval', 60, 0),
    timeoutMs: seconds(values, 'timeout', 10, 0.001),
    staleAfterMs: seconds(values, 'stale-after', 300, 0),
    attempts: count(values, 'attempts', 3, 1),
    retryDelayMs: 1000,
    json,
  };
}

function seconds(
  values: ReadonlyMap<string, string>,
  name: string,
  fallback: number,
  minimum: number,
): number {
  const text = values.get(name);
  if (text === undefined) return fallback * 1000;
  const value = Number(text);
  if (!/^\d+(\.\d+)?$/.test(text) || value < minimum)
    throw new UsageError(`--${name} takes seconds, at least ${minimum}, got ${text}`);
  return Math.round(value * 1000);
}

function count(values: ReadonlyMap<string, string>, name: string, fallback: number, minimum: number): number {
  const text = values.get(name);
  if (text === undefined) return fallback;
  if (!/^\d+$/.test(text) || Number(text) < minimum)
    throw new UsageError(`--${name} takes a whole number, at least ${minimum}, got ${text}`);
  return Number(text);
}
