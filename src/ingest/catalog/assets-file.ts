import { isLosslessNumber, parse } from 'lossless-json';
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { AssetOverride } from '../../market/catalog-join';
import { canonicalDecimal, compareCanonical } from '../../market/decimal';
import { previewJson } from '../../upstream/json-preview';

/**
 * The assets file (ASSETS_FILE) names assets and states what the exchange's market data does not
 * carry: withdraw and deposit terms, CoinMarketCap's id and the trading fees. It is a JSON object
 * keyed by asset symbol, in any case:
 *
 *   {
 *     "BTC": { "name": "Bitcoin", "unified_cryptoasset_id": 1, "can_withdraw": true,
 *              "can_deposit": true, "min_withdraw": "0.0005", "max_withdraw": "50",
 *              "maker_fee": "0.001", "taker_fee": "0.002" },
 *     "usdt": { "name": "Tether USD", "min_withdraw": 10 }
 *   }
 *
 * Every field is optional:
 *   name                    non-empty text
 *   unified_cryptoasset_id  CoinMarketCap's id of the asset (UCID): a positive integer, as a number
 *                           or a string of digits
 *   can_withdraw            true or false (also "true"/"false")
 *   can_deposit             true or false (also "true"/"false")
 *   min_withdraw            non-negative decimal, as a string or a number
 *   max_withdraw            non-negative decimal, as a string or a number; "0" means no maximum
 *   maker_fee, taker_fee    the fee as a fraction of the traded value, 0 to 1 ("0.001" is 0.1 %)
 * A field left out is not published; the name falls back to the gateway's product name, then to the
 * symbol. Unknown fields are errors, as they are most often misspellings. See assets.example.json
 * beside this file.
 */

/** A parsed JSON value whose numbers are LosslessNumbers: exact, and still told apart from strings. */
type JsonValue = string | boolean | null | { readonly value: string } | JsonValue[] | JsonObject;
interface JsonObject {
  readonly [key: string]: JsonValue;
}

function isObject(value: JsonValue): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !isLosslessNumber(value);
}

const FIELDS = [
  'name',
  'unified_cryptoasset_id',
  'can_withdraw',
  'can_deposit',
  'min_withdraw',
  'max_withdraw',
  'maker_fee',
  'taker_fee',
] as const;
const SYMBOL = /^[A-Za-z0-9][A-Za-z0-9.-]*$/;

/** An assets file that cannot be used, with every problem found in it. */
export class AssetsFileError extends Error {
  constructor(
    readonly source: string,
    readonly problems: readonly string[],
  ) {
    super(`${source} is invalid:\n${problems.map((problem) => `  - ${problem}`).join('\n')}`);
    this.name = 'AssetsFileError';
  }
}

function describe(value: JsonValue): string {
  return previewJson(value, 60, (node) => (isLosslessNumber(node) ? node.value : undefined));
}

function readFlag(value: JsonValue, path: string, problems: string[]): boolean | undefined {
  if (value === true || value === 'true') return true;
  if (value === false || value === 'false') return false;
  problems.push(`${path}: must be true or false, got ${describe(value)}`);
  return undefined;
}

/** Exponents beyond this are no withdraw limit and would expand into hundreds of digits. */
const MAX_EXPONENT = 100;
const EXPONENT = /[eE]([+-]?\d+)$/;

function readDecimal(value: JsonValue, path: string, problems: string[]): string | undefined {
  const text = isLosslessNumber(value) ? value.value : value;
  const exponent = typeof text === 'string' ? EXPONENT.exec(text) : null;
  if (typeof text === 'string' && (!exponent || Math.abs(Number(exponent[1])) <= MAX_EXPONENT)) {
    try {
      return canonicalDecimal(text);
    } catch {
      // reported below
    }
  }
  problems.push(`${path}: must be a non-negative decimal number, got ${describe(value)}`);
  return undefined;
}

const DIGITS = /^\d+$/;

function readCryptoassetId(value: JsonValue, path: string, problems: string[]): number | undefined {
  const text = isLosslessNumber(value) ? value.value : value;
  const id = typeof text === 'string' && DIGITS.test(text) ? Number(text) : 0;
  if (id > 0 && Number.isSafeInteger(id)) return id;
  problems.push(`${path}: must be a positive integer (CoinMarketCap's UCID), got ${describe(value)}`);
  return undefined;
}

function readFee(value: JsonValue, path: string, problems: string[]): string | undefined {
  const fee = readDecimal(value, path, problems);
  if (fee === undefined || compareCanonical(fee, '1') <= 0) return fee;
  problems.push(`${path}: a fee is a fraction of the traded value, 0 to 1 (0.001 is 0.1 %), got ${fee}`);
  return undefined;
}

function readEntry(symbol: string, value: JsonValue, problems: string[]): AssetOverride {
  if (!isObject(value)) {
    problems.push(`${symbol}: must be an object with ${FIELDS.join(', ')}, got ${describe(value)}`);
    return {};
  }
  const entry: { -readonly [K in keyof AssetOverride]: AssetOverride[K] } = {};
  for (const [field, fieldValue] of Object.entries(value)) {
    const path = `${symbol}.${field}`;
    switch (field) {
      case 'name':
        if (typeof fieldValue === 'string' && fieldValue.trim() !== '') entry.name = fieldValue.trim();
        else problems.push(`${path}: must be non-empty text, got ${describe(fieldValue)}`);
        break;
      case 'unified_cryptoasset_id':
        entry.unifiedCryptoassetId = readCryptoassetId(fieldValue, path, problems);
        break;
      case 'can_withdraw':
        entry.canWithdraw = readFlag(fieldValue, path, problems);
        break;
      case 'can_deposit':
        entry.canDeposit = readFlag(fieldValue, path, problems);
        break;
      case 'min_withdraw':
        entry.minWithdraw = readDecimal(fieldValue, path, problems);
        break;
      case 'max_withdraw':
        entry.maxWithdraw = readDecimal(fieldValue, path, problems);
        break;
      case 'maker_fee':
        entry.makerFee = readFee(fieldValue, path, problems);
        break;
      case 'taker_fee':
        entry.takerFee = readFee(fieldValue, path, problems);
        break;
      default:
        problems.push(`${path}: unknown field; the fields are ${FIELDS.join(', ')}`);
    }
  }
  const { minWithdraw, maxWithdraw } = entry;
  if (minWithdraw && maxWithdraw && maxWithdraw !== '0' && compareCanonical(minWithdraw, maxWithdraw) > 0) {
    problems.push(`${symbol}: min_withdraw ${minWithdraw} is above max_withdraw ${maxWithdraw}`);
  }
  for (const key of Object.keys(entry) as (keyof AssetOverride)[]) {
    if (entry[key] === undefined) delete entry[key];
  }
  return entry;
}

/**
 * Validates the text of an assets file and returns its entries keyed by upper-case symbol.
 * Throws one AssetsFileError listing every problem.
 */
export function parseAssetsFile(text: string, source = 'assets file'): ReadonlyMap<string, AssetOverride> {
  let body: JsonValue;
  try {
    body = parse(text) as JsonValue;
  } catch (error) {
    throw new AssetsFileError(source, [`not valid JSON: ${(error as Error).message}`]);
  }
  if (!isObject(body)) {
    throw new AssetsFileError(source, [`must be a JSON object keyed by asset symbol, got ${describe(body)}`]);
  }
  const problems: string[] = [];
  const assets = new Map<string, AssetOverride>();
  const spelling = new Map<string, string>();
  for (const [key, value] of Object.entries(body)) {
    const symbol = key.toUpperCase();
    if (!SYMBOL.test(key)) {
      problems.push(`${JSON.stringify(key)}: an asset symbol is letters and digits (also . and -)`);
      continue;
    }
    const earlier = spelling.get(symbol);
    if (earlier !== undefined) {
      problems.push(`${key}: the same asset as ${earlier}; give each asset once`);
      continue;
    }
    spelling.set(symbol, key);
    assets.set(symbol, readEntry(key, value, problems));
  }
  if (problems.length > 0) throw new AssetsFileError(source, problems);
  return assets;
}

/** How a file that cannot be read is described: the error's code, else its message. */
function unreadable(error: unknown): string {
  const { code, message } = error as NodeJS.ErrnoException;
  return `cannot be read: ${code ?? message}`;
}

/**
 * Reads ASSETS_FILE; without a path there are no overrides.
 * Throws an AssetsFileError when the file cannot be read or is invalid.
 */
export async function readAssetsFile(path: string | undefined): Promise<ReadonlyMap<string, AssetOverride>> {
  if (path === undefined) return new Map();
  const source = `ASSETS_FILE ${path}`;
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new AssetsFileError(source, [unreadable(error)]);
  }
  return parseAssetsFile(text, source);
}

/** The problems of the assets file at `path`, none when it can be used; for the check at boot. */
export function assetsFileProblems(path: string): readonly string[] {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    return [unreadable(error)];
  }
  try {
    parseAssetsFile(text);
    return [];
  } catch (error) {
    if (error instanceof AssetsFileError) return error.problems;
    throw error;
  }
}
