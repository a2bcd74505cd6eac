import { Tuning } from '../../config/tuning';

/** What one connection of the live stream may do (the `stream*` tuning). */
export interface StreamLimits {
  readonly maxSubscriptions: number;
  readonly maxFrameBytes: number;
  readonly maxBacklog: number;
  readonly heartbeatMs: number;
  readonly maxConnectionsPerAddress: number;
  readonly subscribeRate: number;
  readonly maxBehindMs: number;
}

export function streamLimits(tuning: Tuning): StreamLimits {
  return {
    maxSubscriptions: tuning.streamMaxSubscriptions,
    maxFrameBytes: tuning.streamMaxFrameBytes,
    maxBacklog: tuning.streamMaxBacklog,
    heartbeatMs: tuning.streamHeartbeatMs,
    maxConnectionsPerAddress: tuning.streamMaxConnectionsPerAddress,
    subscribeRate: tuning.streamSubscribeRate,
    maxBehindMs: tuning.streamMaxBehindMs,
  };
}
