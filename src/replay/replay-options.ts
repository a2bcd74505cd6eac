import { parseArgs } from 'node:util';
import { MOMENT_FORMS, momentOf } from './book-at';

export class UsageError extends Error {}

export const BOOK_AT_USAGE = `usage: npm run book-at -- --dir <dir> --instrument <instrument> --at <time>

  --dir D          a recording directory (RECORD_DIR)
  --instrument I   the market, e.g. btc_usdt
  --at T           the moment: an ISO 8601 time (2026-12-03T12:03:00Z) or Unix milliseconds`;

export const REPLAY_USAGE = `usage: npm run replay -- --dir <dir> [--speed <factor>|max] [--from <time>] [--to <time>] [--port <port>]

  --dir D          a recording directory (RECORD_DIR)
  --process P      whose files to play, when several processes recorded into D
  --speed S        times real time (default 1), or max: as fast as the clients take it
  --from T, --to T play from, up to this moment (ISO 8601 or Unix milliseconds)
  --host H         the address to listen on (default 127.0.0.1)
  --port N         the port (default 8090); point a gateway at it with UPSTREAM_BASE_URL=http://H:N`;

export interface ReplayCommand {
  readonly dir: string;
  readonly process?: string;
  readonly speed: number;
  readonly from?: number;
  readonly to?: number;
  readonly host: string;
  readonly port: number;
}

/** The replay command line, checked: every problem is a UsageError naming the option. */
export function parseReplayOptions(argv: readonly string[]): ReplayCommand | 'help' {
  const values = parsed(argv, ['dir', 'process', 'speed', 'from', 'to', 'host', 'port']);
  if (values.help) return 'help';
  const speedText = (values.speed as string | undefined) ?? '1';
  const speed = speedText === 'max' ? Infinity : Number(speedText);
  if (!(speed > 0) || (!Number.isFinite(speed) && speedText !== 'max'))
    throw new UsageError(`--speed must be a positive factor or max, got ${speedText}`);
  const port = Number((values.port as string | undefined) ?? '8090');
  if (!Number.isInteger(port) || port < 0 || port > 65_535)
    throw new UsageError(`--port must be a port number, got ${String(values.port)}`);
  const from = values.from === undefined ? undefined : parseMoment('from', values.from as string);
  const to = values.to === undefined ? undefined : parseMoment('to', values.to as string);
  if (from !== undefined && to !== undefined && to < from) throw new UsageError('--to is before --from');
  return {
    dir: required(values, 'dir'),
    ...(typeof values.process === 'string' ? { process: values.process } : {}),
    speed,
    ...(from !== undefined ? { from } : {}),
    ...(to !== undefined ? { to } : {}),
    host: (values.host as string | undefined) ?? '127.0.0.1',
    port,
  };
}

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

function parseMoment(option: string, text: string): number {
  const ms = momentOf(text);
  if (ms === undefined) throw new UsageError(`--${option} must be ${MOMENT_FORMS}, got ${text}`);
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
