import { Logger } from '@nestjs/common';
import { joinCatalog, withEarlierGatewayIds } from '../../market/catalog-join';
import { GatewayInstrument, GatewayProduct } from '../../market/gateway-records';
import { withKeptMarkets } from '../../market/kept-markets';
import { MarketCatalog, MarketInfo } from '../../market/market-info';
import { StateStore } from '../../store/state-store';
import { GatewayClient } from '../../upstream/gateway/gateway-client';
import { GatewayMarketData } from '../../upstream/gateway/gateway-market-data';
import { ExchangeInfo } from '../../upstream/rest/info-codec';
import { RestClient } from '../../upstream/rest/rest-client';
import { CatalogInputs } from './catalog-inputs';
import { CatalogPublisher } from './catalog-publisher';
import { KeptAssetsFile } from './kept-assets-file';

const STORE_RETRY_MS = 1_000;

/**
 * Builds the market catalogue: the exchange's REST market list joined with the gateway's instruments
 * and products (its ids and symbols) and the assets file, and keeps it stored for the API (also
 * through store failures and a store that lost its contents, between `start` and `stop`).
 *
 * An input that fails or comes back partial never empties the catalogue: the last good version of
 * what failed is used (a malformed market's previous record, the gateway's last records, the assets
 * file's last good version), and `inputs` tells which input fails and why. Only a market list that
 * cannot be read at all fails the refresh, which leaves the stored catalogue as it was.
 */
export class CatalogRefresher {
  private readonly logger = new Logger(CatalogRefresher.name);
  private readonly gatewayData: GatewayMarketData;
  private readonly publisher: CatalogPublisher;
  private storeFailing = false;
  /** The gateway's records of the last refresh that reached it. */
  private lastGatewayRecords?: [GatewayInstrument[], GatewayProduct[]];
  /** The newest catalogue read from the store, whichever replica built it. */
  private newestStored?: MarketCatalog;
  /** The read of the stored catalogue (made again after a failed one) for a replica with none of its own. */
  private storeRead?: Promise<void>;
  /** The exchange's markets as the last refresh used them. */
  private lastMarkets: readonly MarketInfo[] = [];
  readonly inputs: CatalogInputs;
  private readonly assets: KeptAssetsFile;

  constructor(
    private readonly rest: RestClient,
    private readonly gateway: GatewayClient,
    private readonly store: StateStore,
    assetsFile: string | undefined,
    /** How long a refresh waits for the gateway to be connected before it does without its records. */
    private readonly gatewayWaitMs: number,
    private readonly now: () => number,
    /** The exchange is the in-process sandbox: every catalogue says so, for the API to tell its readers. */
    private readonly sandbox = false,
  ) {
    this.gatewayData = new GatewayMarketData(gateway, { now });
    this.inputs = new CatalogInputs(
      {
        failing: (input, problem, lastGoodAt) =>
          this.logger.warn(
            `catalogue input ${input} failed, ${lastGoodAt === undefined ? 'none read well yet' : `keeping its version of ${new Date(lastGoodAt).toISOString()}`}: ${problem}`,
          ),
        recovered: (input) => this.logger.log(`catalogue input ${input} is read well again`),
      },
      now,
    );
    this.assets = new KeptAssetsFile(assetsFile, this.inputs);
    this.publisher = new CatalogPublisher(store, {
      retryMs: STORE_RETRY_MS,
      onFailed: (error) => {
        if (!this.storeFailing) this.logger.warn(`market catalogue not stored, retrying: ${error.message}`);
        this.storeFailing = true;
      },
      onStored: () => {
        if (this.storeFailing) this.logger.log('market catalogue stored again');
        this.storeFailing = false;
      },
    });
  }

  start(): void {
    this.publisher.start();
  }

  stop(): void {
    this.publisher.stop();
  }

  /** A catalogue another replica stored: this one puts it back if the store loses it. */
  remember(catalog: MarketCatalog): void {
    if (this.newestStored === undefined || catalog.refreshedAt > this.newestStored.refreshedAt)
      this.newestStored = catalog;
    this.publisher.remember(catalog);
  }

  /** `signal` aborts the exchange's market list call, which would otherwise retry after a shutdown. */
  async refresh(signal?: AbortSignal): Promise<MarketCatalog> {
    const markets = await this.exchangeMarkets(signal);
    const records = await this.gatewayRecords();
    const [instruments, products] = records ?? [[], []];
    let catalog = joinCatalog(markets, instruments, products, await this.assets.entries(), this.now());
    // A replica that never reached the gateway (one just started) keeps the ids another one stored.
    const earlier = records === undefined ? await this.earlierCatalog() : undefined;
    if (earlier) catalog = withEarlierGatewayIds(catalog, earlier);
    if (this.sandbox) catalog = { ...catalog, sandbox: true };
    await this.publisher.publish(catalog);
    return catalog;
  }

  /**
   * The exchange's markets. A malformed entry keeps the market's previous record; an empty list after
   * markets were listed is taken for a fault of the exchange and the previous list is kept. A replica
   * that has no list of its own yet takes the stored catalogue's as the previous one.
   */
  private async exchangeMarkets(signal?: AbortSignal): Promise<readonly MarketInfo[]> {
    let info: ExchangeInfo;
    try {
      info = await this.rest.info({ signal });
    } catch (error) {
      if (!signal?.aborted) this.inputs.failed('exchange_info', (error as Error).message);
      throw error;
    }
    const faulty = info.markets.length === 0 || info.skipped.length > 0;
    const previous =
      this.lastMarkets.length > 0 || !faulty
        ? this.lastMarkets
        : ((await this.earlierCatalog())?.markets ?? []);
    if (info.markets.length === 0 && info.skipped.length === 0 && previous.length > 0) {
      this.inputs.failed('exchange_info', 'the exchange lists no market');
      return previous;
    }
    const { markets, kept } = withKeptMarkets(
      info.markets,
      info.skipped.map((skipped) => skipped.key),
      previous,
    );
    if (info.skipped.length === 0) this.inputs.succeeded('exchange_info');
    else {
      const skipped = info.skipped.map((s) => `${s.key}: ${s.problem}`).join('; ');
      const keeping = kept.length > 0 ? ` (the previous record kept of ${kept.join(', ')})` : '';
      this.inputs.failed('exchange_info', `markets skipped as malformed${keeping}: ${skipped}`);
    }
    this.lastMarkets = markets;
    return markets;
  }

  /**
   * The newest stored catalogue: the one last remembered, else the store's, read until a read works
   * (a refresh may run before the catalogue follower's first read). Undefined when there is none.
   */
  private async earlierCatalog(): Promise<MarketCatalog | undefined> {
    this.storeRead ??= this.store.readCatalog().then(
      (stored) => stored && this.remember(stored),
      () => void (this.storeRead = undefined),
    );
    await this.storeRead;
    return this.newestStored;
  }

  /**
   * The gateway's ids; without them the books still come from the hub, but no gateway feed can be
   * opened. While the gateway is out of reach, those of the last refresh that reached it are kept:
   * a catalogue without them would leave every pipeline opened meanwhile without its trade feed.
   * Undefined when this replica has never reached it.
   */
  private async gatewayRecords(): Promise<[GatewayInstrument[], GatewayProduct[]] | undefined> {
    try {
      await this.gateway.whenConnected(this.gatewayWaitMs);
      const records = await Promise.all([this.gatewayData.getInstruments(), this.gatewayData.getProducts()]);
      if (records[0].length === 0 && (this.lastGatewayRecords?.[0].length ?? 0) > 0)
        throw new Error('the gateway lists no instrument');
      this.lastGatewayRecords = records;
      this.inputs.succeeded('gateway_instruments');
      return records;
    } catch (error) {
      this.inputs.failed('gateway_instruments', (error as Error).message);
      return this.lastGatewayRecords;
    }
  }
}
