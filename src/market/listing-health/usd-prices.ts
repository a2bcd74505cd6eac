import { ExactRatio } from '../exact-ratio';

/** A listed market whose mid may price one of its assets in the other. */
export interface PriceSource {
  readonly instrument: string;
  /** Upper case. */
  readonly base: string;
  readonly quote: string;
  /** Quote units per base unit. */
  readonly mid: ExactRatio;
}

export type UsdPrice =
  | {
      /** US dollars per unit of the asset. */
      readonly price: ExactRatio;
      /** The markets whose mids were multiplied, in order; empty for a reference asset. */
      readonly path: readonly string[];
    }
  | { readonly price: undefined; readonly reason: string };

interface Edge {
  readonly to: string;
  /** Units of `to` per unit of the asset the edge leaves from. */
  readonly rate: ExactRatio;
  readonly instrument: string;
}

/**
 * Prices of assets in US dollars through the exchange's own markets: a reference asset (a dollar or a
 * dollar stablecoin) counts as one dollar; any other asset is priced by the mid of a market against a
 * reference asset, directly or through one intermediate asset. Among several paths, the shortest
 * wins, then the first reference asset in the configured order, then the markets' names.
 */
export class UsdPrices {
  private readonly edges = new Map<string, Edge[]>();
  private readonly prices = new Map<string, UsdPrice>();

  constructor(
    /** Upper case, in order of preference. */
    private readonly references: readonly string[],
    sources: readonly PriceSource[],
  ) {
    const sorted = [...sources].sort((a, b) => (a.instrument < b.instrument ? -1 : 1));
    for (const { instrument, base, quote, mid } of sorted) {
      if (mid.compare(ExactRatio.ZERO) <= 0 || base === quote) continue;
      this.edgesFrom(base).push({ to: quote, rate: mid, instrument });
      this.edgesFrom(quote).push({ to: base, rate: ExactRatio.ONE.dividedBy(mid), instrument });
    }
  }

  /** The price of an asset (upper case). */
  of(asset: string): UsdPrice {
    let price = this.prices.get(asset);
    if (!price) this.prices.set(asset, (price = this.find(asset)));
    return price;
  }

  private find(asset: string): UsdPrice {
    if (this.references.includes(asset)) return { price: ExactRatio.ONE, path: [] };
    const direct = this.bestDirect(asset);
    if (direct) return { price: direct.rate, path: [direct.instrument] };
    for (const reference of this.references) {
      for (const first of this.edges.get(asset) ?? []) {
        if (this.references.includes(first.to)) continue;
        const second = (this.edges.get(first.to) ?? []).find((edge) => edge.to === reference);
        if (second)
          return { price: first.rate.times(second.rate), path: [first.instrument, second.instrument] };
      }
    }
    return {
      price: undefined,
      reason: `no listed market prices ${asset} in ${this.references.join(', ')}, directly or through one other asset`,
    };
  }

  private bestDirect(asset: string): Edge | undefined {
    const edges = this.edges.get(asset) ?? [];
    for (const reference of this.references) {
      const edge = edges.find((candidate) => candidate.to === reference);
      if (edge) return edge;
    }
    return undefined;
  }

  private edgesFrom(asset: string): Edge[] {
    let edges = this.edges.get(asset);
    if (!edges) this.edges.set(asset, (edges = []));
    return edges;
  }
}
