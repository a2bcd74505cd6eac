import { AppConfig } from '../../config/app-config';

/** What one connection of the live stream may do, from the `STREAM_*` settings. */
export interface StreamLimits {
  readonly maxSubscriptions: number;
  readonly maxFrameBytes: number;
  readonly maxBacklog: number;
  readonly heartbeatMs: number;
  readonly maxConnectionsPerAddress: number;
  readonly subscribeRate: number;
  readonly maxBehindMs: number;
}

export function streamLimits(config: AppConfig): StreamLimits {
  return {
    maxSubscriptions: config.STREAM_MAX_SUBSCRIPTIONS,
    maxFrameBytes: config.STREAM_MAX_FRAME_BYTES,
    maxBacklog: config.STREAM_MAX_BACKLOG,
    heartbeatMs: config.STREAM_HEARTBEAT_MS,
    maxConnectionsPerAddress: config.STREAM_MAX_CONNECTIONS_PER_ADDRESS,
    subscribeRate: config.STREAM_SUBSCRIBE_RATE,
    maxBehindMs: config.STREAM_MAX_BEHIND_MS,
  };
}
