import { fail, Finding, warn } from './audit-finding';
import { shown } from './json-body';
import { OrientationClaim } from './market-views';

export type KeyCase = 'upper' | 'lower' | 'any';

const PAIR: Record<KeyCase, RegExp> = {
  upper: /^[A-Z0-9]+_[A-Z0-9]+$/,
  lower: /^[a-z0-9]+_[a-z0-9]+$/,
  // CoinMarketCap and CoinGecko take a dash, hyphen or underscore; never the two symbols run together.
  any: /^[A-Za-z0-9]+[_-][A-Za-z0-9]+$/,
};

const DESCRIBED: Record<KeyCase, string> = {
  upper: 'upper-case BASE_QUOTE',
  lower: 'lower-case base_quote',
  any: 'BASE_QUOTE with _ or -',
};

/** The one name of a market across formats: upper case, `_` between the assets. */
export function canonicalMarket(key: string): string {
  return key.toUpperCase().replace('-', '_');
}

/** Market names of one list: the form the format gives, each once. Returns the canonical names of the valid ones. */
export function checkMarketKeys(
  keys: readonly unknown[],
  where: string,
  keyCase: KeyCase,
): { findings: Finding[]; markets: string[] } {
  const findings: Finding[] = [];
  const markets: string[] = [];
  for (const key of keys) {
    if (typeof key !== 'string' || !PAIR[keyCase].test(key)) {
      findings.push(fail('market-keys', `${where} ${shown(key)}`, `not ${DESCRIBED[keyCase]}`));
      if (typeof key !== 'string' || !PAIR.any.test(key)) continue;
    }
    const market = canonicalMarket(key);
    if (markets.includes(market)) findings.push(fail('market-keys', `${where} ${key}`, 'listed twice'));
    else markets.push(market);
  }
  return { findings, markets };
}

/** Markets one list has and another lacks; `severity` says how much that matters for the pair of lists. */
export function compareMarketSets(
  listed: readonly string[],
  inList: string,
  other: readonly string[],
  inOther: string,
  severity: 'fail' | 'warn',
): Finding[] {
  const have = new Set(other);
  const report = severity === 'fail' ? fail : warn;
  return listed
    .filter((market) => !have.has(market))
    .map((market) =>
      report('market-keys', `${inOther} ${market}`, `listed in ${inList} but not in ${inOther}`),
    );
}

/**
 * A record's base and quote against its market name: the same order passes, the reverse order is the
 * classic swapped pair. With asset names, `names` maps each symbol to its name from the asset list.
 */
export function checkOrientation(
  claims: readonly OrientationClaim[],
  names: ReadonlyMap<string, string> = new Map(),
): Finding[] {
  const findings: Finding[] = [];
  for (const claim of claims) {
    const [first, second] = canonicalMarket(claim.key).split('_');
    if (first === undefined || second === undefined) continue;
    if (typeof claim.base !== 'string' || typeof claim.quote !== 'string') continue;
    const expected = claim.byName ? [names.get(first), names.get(second)] : [first, second];
    if (expected[0] === undefined || expected[1] === undefined || expected[0] === expected[1]) continue;
    const same = (a: string, b: string) => a.toUpperCase() === b.toUpperCase();
    const base = claim.base;
    const quote = claim.quote;
    if (same(base, expected[0]) && same(quote, expected[1])) continue;
    const said = `base ${shown(base)}, quote ${shown(quote)}`;
    if (same(base, expected[1]) && same(quote, expected[0]))
      findings.push(
        fail('base-quote-orientation', claim.where, `${said}: swapped for the market ${claim.key}`),
      );
    else if (claim.byName)
      findings.push(
        warn(
          'base-quote-orientation',
          claim.where,
          `${said}: not the asset list's names of ${first} and ${second}`,
        ),
      );
    else
      findings.push(fail('base-quote-orientation', claim.where, `${said}: not the assets of ${claim.key}`));
  }
  return findings;
}
