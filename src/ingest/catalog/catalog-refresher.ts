import { Logger } from '@nestjs/common';
import { joinCatalog } from '../../market/catalog-join';
import { MarketCatalog } from '../../market/market-info';
import { StateStore } from '../../store/state-store';
import { GatewayClient } from '../../upstream/gateway/gateway-client';
import { GatewayMarketData } from '../../upstream/gateway/gateway-market-data';
import { GatewayInstrument, GatewayProduct } from '../../upstream/gateway/gateway-records';
import { RestClient } from '../../upstream/rest/rest-client';
import { readAssetsFile } from './assets-file';
import { CatalogPublisher } from './catalog-publisher';

const GATEWAY_WAIT_MS = 10_000;
const STORE_RETRY_MS = 1_000;

/**
 * Builds the market catalogue: the exchange's REST market list joined with the gateway's instruments
 * and products (its ids and symbols) and the assets file, and keeps it stored for the API (also
 * through store failures and a store that lost its contents, between `start` and `stop`).
 */
export class CatalogRefresher {
  private readonly logger = new Logger(CatalogRefresher.name);
  private readonly gatewayData: GatewayMarketData;
  private readonly publisher: CatalogPublisher;
  private storeFailing = false;
  /** The gateway's records of the last refresh that reached it. */
  private lastGatewayRecords?: [GatewayInstrument[], GatewayProduct[]];

  constructor(
    private readonly rest: RestClient,
    private readonly gateway: GatewayClient,
    store: StateStore,
    private readonly assetsFile: string | undefined,
    private readonly now: () => number,
  ) {
    this.gatewayData = new GatewayMarketData(gateway, { now });
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

  async refresh(): Promise<MarketCatalog> {
    const info = await this.rest.info();
    if (info.skipped.length > 0)
      this.logger.warn(
        `markets skipped as malformed: ${info.skipped.map((s) => `${s.key}: ${s.problem}`).join('; ')}`,
      );
    const [instruments, products] = await this.gatewayRecords();
    const catalog = joinCatalog(
      info.markets,
      instruments,
      products,
      await readAssetsFile(this.assetsFile),
      this.now(),
    );
    await this.publisher.publish(catalog);
    return catalog;
  }

  /**
   * The gateway's ids; without them the books still come from the hub, but no gateway feed can be
   * opened. While the gateway is out of reach, those of the last refresh that reached it are kept:
   * a catalogue without them would leave every pipeline opened meanwhile without its trade feed.
   */
  private async gatewayRecords(): Promise<[GatewayInstrument[], GatewayProduct[]]> {
    try {
      await this.gateway.whenConnected(GATEWAY_WAIT_MS);
      this.lastGatewayRecords = await Promise.all([
        this.gatewayData.getInstruments(),
        this.gatewayData.getProducts(),
      ]);
      return this.lastGatewayRecords;
    } catch (error) {
      const kept = this.lastGatewayRecords;
      this.logger.warn(
        `gateway instruments unavailable, catalogue ${kept ? 'with those of the last refresh' : 'without them'}: ${(error as Error).message}`,
      );
      return kept ?? [[], []];
    }
  }
}
