import { parseArgs } from 'node:util';

export class UsageError extends Error {}

export const BOOK_AT_USAGE = `usage: npm run book-at -- --dir <dir> --instrument <instrument> --at <time>

  --dir D          a recording directory (RECORD_DIR)
  --instrument I   the market, e.g. btc_usdt
  --at T           the moment: an ISO 8601 time (2026-12-03T12:03:00Z) or Unix milliseconds`;

export interface BookAtCommand {
  readonly dir: string;
  readonly instrument: string;
  /** Unix milliseconds. */
  readonly at: number;
}

/** The book-at command line, checked: every problem is a UsageError naming the option. */
export function parseBookAtOptions(argv: readonly string[]): BookAtCommand | 'help' {
  const values = parsed(argv, ['dir', 'instrument', 'at']);
  if (values.help) return 'help';
  return {
    dir: required(values, 'dir'),
    instrument: required(values, 'instrument').toLowerCase(),
    at: parseMoment('at', required(values, 'at')),
  };
}

/** A moment as an ISO 8601 time with its zone, or as Unix milliseconds. */
export function parseMoment(option: string, text: string): number {
  if (/^\d{1,16}$/.test(text)) return Number(text);
  const ms = /^\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d(\.\d+)?)?(Z|[+-]\d\d:\d\d)$/.test(text)
    ? Date.parse(text)
    : NaN;
  if (Number.isNaN(ms))
    throw new UsageError(
      `--${option} must be an ISO 8601 time with its zone or Unix milliseconds, got ${text}`,
    );
  return ms;
}

type Values = Record<string, string | boolean | undefined>;

function parsed(argv: readonly string[], options: readonly string[]): Values {
  try {
    return parseArgs({
      args: [...argv],
      options: {
        help: { type: 'boolean', short: 'h' },
        ...Object.fromEntries(options.map((name) => [name, { type: 'string' as const }])),
      },
      strict: true,
      allowPositionals: false,
    }).values;
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

function required(values: Values, name: string): string {
  const value = values[name];
  if (typeof value !== 'string' || value === '') throw new UsageError(`--${name} is missing`);
  return value;
}
