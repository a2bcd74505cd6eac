import { readFileSync } from 'node:fs';
import { uniformInt } from 'pure-rand/distribution/uniformInt';
import { xoroshiro128plus } from 'pure-rand/generator/xoroshiro128plus';
import { formatUnits, parseUnits } from '../engine/units';
import { defaultMarkets } from './default-markets';
import { MarketSideMode, MarketStatus, SandboxMarketSpec } from './market-spec';

export class MarketCatalogError extends Error {
  constructor(readonly problems: readonly string[]) {
    super(`Invalid sandbox markets:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'MarketCatalogError';
  }
}

export interface MarketCatalogOptions {
  readonly file?: string;
  readonly count?: number;
  readonly seed: number;
}

/** The sandbox's markets: from a file, generated in bulk for scale tests, or the built-in set. */
export function loadMarkets(options: MarketCatalogOptions): SandboxMarketSpec[] {
  if (options.file) return parseMarkets(readMarketsFile(options.file));
  if (options.count !== undefined) return generateMarkets(options.count, options.seed);
  return defaultMarkets();
}

function readMarketsFile(file: string): unknown {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    const { code, message } = error as NodeJS.ErrnoException;
    throw new MarketCatalogError([`cannot be read: ${code ?? message}`]);
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new MarketCatalogError([`not valid JSON: ${(error as Error).message}`]);
  }
}

/** The problems of the markets file at `file`, none when it can be used; for the check at boot. */
export function marketsFileProblems(file: string): readonly string[] {
  try {
    parseMarkets(readMarketsFile(file));
    return [];
  } catch (error) {
    if (error instanceof MarketCatalogError) return error.problems;
    throw error;
  }
}

const QUOTES = ['usdt', 'btc', 'eth', 'eur'];
const CREATED_AT = '2024-03-14T09:26:53.589793';

/** `count` open, visible markets with scales cycling through 2..18, drawn from the seed. */
export function generateMarkets(count: number, seed: number): SandboxMarketSpec[] {
  const random = xoroshiro128plus(seed ^ 0x5eed);
  return Array.from({ length: count }, (_, index) => {
    const priceScale = 2 + (index % 17);
    const amountScale = 2 + ((index * 7) % 17);
    const baseAsset = `c${String(index + 1).padStart(5, '0')}`;
    const quoteAsset = QUOTES[index % QUOTES.length];
    return {
      instrument: `${baseAsset}_${quoteAsset}`,
      baseAsset,
      quoteAsset,
      instrumentId: index + 1,
      priceScale,
      amountScale,
      minAmount: formatUnits(1n, Math.min(amountScale, 3)),
      priceDeviation: '0.15',
      hidden: 0,
      makerFee: '0.001',
      takerFee: '0.002',
      status: 'Open',
      side: 'BuySell',
      isCustom: false,
      createdAt: CREATED_AT,
      updatedAt: CREATED_AT,
      initialPrice: formatUnits(BigInt(uniformInt(random, 100_000, 9_999_999)), priceScale),
      typicalAmount: formatUnits(
        BigInt(uniformInt(random, 1, 100)) * 10n ** BigInt(amountScale),
        amountScale,
      ),
    };
  });
}

const STATUSES: readonly MarketStatus[] = ['Open', 'Halted', 'Paused'];
const SIDES: readonly MarketSideMode[] = ['BuySell', 'Buy', 'Sell'];
const ASSET = /^[a-z0-9]{1,20}$/;

/** Validates a markets file (a JSON array of market objects) and fills the optional fields. */
export function parseMarkets(input: unknown): SandboxMarketSpec[] {
  if (!Array.isArray(input) || input.length === 0)
    throw new MarketCatalogError(['the file must hold a non-empty JSON array']);
  const problems: string[] = [];
  const markets = input.map((entry: unknown, index) => {
    const raw: Record<string, unknown> = isRecord(entry) ? entry : {};
    const at = `market ${index} (${String(raw.instrument)})`;
    const problem = (text: string) => problems.push(`${at}: ${text}`);
    if (!isRecord(entry)) problem('must be an object');
    const baseAsset = String(raw.baseAsset ?? '');
    const quoteAsset = String(raw.quoteAsset ?? '');
    if (!ASSET.test(baseAsset) || !ASSET.test(quoteAsset))
      problem('baseAsset and quoteAsset must be lower-case letters and digits');
    const instrument = `${baseAsset}_${quoteAsset}`;
    if (raw.instrument !== undefined && raw.instrument !== instrument)
      problem(`instrument must be ${instrument}`);
    const priceScale = scale(raw.priceScale, 'priceScale', problem);
    const amountScale = scale(raw.amountScale, 'amountScale', problem);
    const decimal = (field: string, fieldScale: number, fallback?: string) => {
      const value = raw[field] ?? fallback;
      const text = typeof value === 'number' ? String(value) : value;
      try {
        if (typeof text !== 'string') throw new Error('missing');
        parseUnits(text, fieldScale);
        return text;
      } catch {
        problem(`${field} must be a decimal with at most ${fieldScale} decimals`);
        return '0';
      }
    };
    const status = (raw.status ?? 'Open') as MarketStatus;
    if (!STATUSES.includes(status)) problem(`status must be one of ${STATUSES.join(', ')}`);
    const side = (raw.side ?? 'BuySell') as MarketSideMode;
    if (!SIDES.includes(side)) problem(`side must be one of ${SIDES.join(', ')}`);
    const hidden = raw.hidden ?? 0;
    if (hidden !== 0 && hidden !== 1) problem('hidden must be 0 or 1');
    const spec: SandboxMarketSpec = {
      instrument,
      baseAsset,
      quoteAsset,
      instrumentId: typeof raw.instrumentId === 'number' ? raw.instrumentId : index + 1,
      priceScale,
      amountScale,
      minAmount: decimal('minAmount', amountScale),
      priceDeviation: decimal('priceDeviation', 18, '0.15'),
      hidden: hidden as 0 | 1,
      makerFee: decimal('makerFee', 18, '0.001'),
      takerFee: decimal('takerFee', 18, '0.002'),
      status,
      side,
      isCustom: raw.isCustom === true,
      createdAt: typeof raw.createdAt === 'string' ? raw.createdAt : CREATED_AT,
      updatedAt: typeof raw.updatedAt === 'string' ? raw.updatedAt : CREATED_AT,
      initialPrice: decimal('initialPrice', priceScale),
      typicalAmount: decimal('typicalAmount', amountScale),
    };
    if (spec.initialPrice === '0') problem('initialPrice must be greater than 0');
    if (Number(spec.priceDeviation) > 1) problem('priceDeviation must be within 0-1');
    return spec;
  });
  for (const key of ['instrument', 'instrumentId'] as const) {
    const seen = new Set<unknown>();
    for (const market of markets) {
      if (seen.has(market[key])) problems.push(`duplicate ${key} ${market[key]}`);
      seen.add(market[key]);
    }
  }
  if (problems.length > 0) throw new MarketCatalogError(problems);
  return markets;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function scale(value: unknown, field: string, problem: (text: string) => void): number {
  if (typeof value === 'number' && Number.isInteger(value) && value >= 2 && value <= 18) return value;
  problem(`${field} must be an integer within 2-18`);
  return 2;
}
