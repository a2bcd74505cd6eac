/**
 * The sandbox's tuning: chosen once, so not settings. The sandbox always runs these defaults; only
 * code that starts it (tests) may pass other values, never the environment.
 */
export class SandboxTuning {
  /** The exchange's hubs ping every 15 s (SignalR's default keep-alive); a connection silent twice as long is closed. */
  hubKeepAliveMs = 15_000;
}

/** Variables that earlier versions of the sandbox read: one still set is an error at start. */
export const REMOVED_SANDBOX_SETTINGS: readonly string[] = ['SANDBOX_KEEPALIVE_MS'];
