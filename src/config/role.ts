/** What a process does: serve the API, ingest upstream data, both, or simulate the exchange. */
export enum Role {
  All = 'all',
  Api = 'api',
  Ingest = 'ingest',
  Sandbox = 'sandbox',
}

export function ingests(role: string): boolean {
  return role === Role.All || role === Role.Ingest;
}

export function servesApi(role: string): boolean {
  return role === Role.All || role === Role.Api;
}

/** The sandbox runs alone, or in-process for an ingest that asks for it (`SANDBOX=true`). */
export function runsSandbox(role: string, sandbox: boolean): boolean {
  return role === Role.Sandbox || (ingests(role) && sandbox);
}
