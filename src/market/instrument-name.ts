/** `BTC-USDT`, `btc_usdt`, `Btc_Usdt` all name the market `btc_usdt`. */
export function normalizeInstrument(name: string): string {
  return name.trim().toLowerCase().replace(/-/g, '_');
}
