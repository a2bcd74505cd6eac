/** What a process does: serve the API, ingest upstream data, both, or simulate the exchange. */
export enum Role {
  All = 'all',
  Api = 'api',
  Ingest = 'ingest',
  Sandbox = 'sandbox',
}
