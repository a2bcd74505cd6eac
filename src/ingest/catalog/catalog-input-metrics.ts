import { Gauge, Registry } from 'prom-client';
import { CatalogInputHealth, CatalogInputName } from './catalog-inputs';

/** Whether each input of the market catalogue was read well at the last refresh this process ran. */
export function registerCatalogInputMetrics(
  registry: Registry,
  health: () => ReadonlyMap<CatalogInputName, CatalogInputHealth>,
): void {
  new Gauge({
    name: 'mdg_catalog_input_ok',
    help: 'Whether the last read of each catalogue input (exchange_info, gateway_instruments, assets_file) succeeded: 1, or 0 while the catalogue keeps its last good version.',
    labelNames: ['input'],
    registers: [registry],
    collect() {
      this.reset();
      for (const [input, { ok }] of health()) this.set({ input }, ok ? 1 : 0);
    },
  });
  new Gauge({
    name: 'mdg_catalog_input_last_good_timestamp_seconds',
    help: 'Unix time of the last good read of each catalogue input: the version the catalogue uses.',
    labelNames: ['input'],
    registers: [registry],
    collect() {
      this.reset();
      for (const [input, { lastGoodAt }] of health())
        if (lastGoodAt !== undefined) this.set({ input }, lastGoodAt / 1000);
    },
  });
}
