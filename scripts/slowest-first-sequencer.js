const path = require('node:path');
const Sequencer = require('@jest/test-sequencer').default;

const ROOT = path.join(__dirname, '..');

/**
 * Seconds each of the longest suites took on two cores. Jest runs the suites it has timed before
 * longest first; on a fresh clone it has no timings and goes by file size, which put a two-minute
 * suite of a small file near the end and left one worker running it alone. Only the order depends
 * on these figures, so they need to be roughly right, not current.
 */
const KNOWN_SECONDS = {
  'test/charts/tradingview-data-tests.e2e-spec.ts': 100,
  'test/chaos/chaos-sentinel.e2e-spec.ts': 35,
  'test/charts/stream-candles.e2e-spec.ts': 35,
  'test/charts/chart-faults.e2e-spec.ts': 30,
  'test/ingest/catalog-without-gateway.e2e-spec.ts': 31,
  'test/scale/stream-replicas.e2e-spec.ts': 31,
  'test/ingest/gateway-delta-faults.e2e-spec.ts': 31,
  'test/ops/graceful-shutdown.e2e-spec.ts': 29,
  'test/ingest/hub-delta-faults.e2e-spec.ts': 28,
  'test/chaos/chaos.e2e-spec.ts': 19,
  'test/ingest/gateway-connection-faults.e2e-spec.ts': 20,
  'test/ingest/hub-connection-faults.e2e-spec.ts': 20,
  'test/scale/takeover-trades.e2e-spec.ts': 19,
  'test/ops/start-up.e2e-spec.ts': 18,
  'test/scale/failover.e2e-spec.ts': 18,
  'test/ops/secrets.e2e-spec.ts': 17,
  'test/scale/scheduled-jobs.e2e-spec.ts': 17,
  'src/upstream/hub/book-item-reader.spec.ts': 16,
  'test/console/console-figures.e2e-spec.ts': 15,
  'test/scale/job-scheduler.e2e-spec.ts': 15,
  'test/api/mirror.e2e-spec.ts': 14,
  'test/sentinel/failover.e2e-spec.ts': 13,
  'test/fuzz/gateway-frames.e2e-spec.ts': 14,
  'test/ingest/assets-file.e2e-spec.ts': 14,
  'test/api/stream-slow-reader.e2e-spec.ts': 14,
  'test/console/console-restart.e2e-spec.ts': 14,
  'test/ingest/redis-restart.e2e-spec.ts': 14,
  'test/scale/leases.e2e-spec.ts': 12,
  'test/upstream/redis-request-budget.e2e-spec.ts': 12,
  'test/api/coingecko.e2e-spec.ts': 12,
  'test/api/listing-health-flags.e2e-spec.ts': 11,
  'test/health/readiness.e2e-spec.ts': 11,
  'test/fuzz/hub-messages.e2e-spec.ts': 10,
  'test/ingest/crossed-upstream.e2e-spec.ts': 10,
  'test/ops/redis-partition.e2e-spec.ts': 10,
  'test/ingest/without-credentials.e2e-spec.ts': 10,
  'test/api/half-open-clients.e2e-spec.ts': 10,
  'test/console/console-replicas.e2e-spec.ts': 10,
};

/** Failed suites first, then the longest first: as measured by Jest, else as known here, else by size. */
class SlowestFirstSequencer extends Sequencer {
  sort(tests) {
    const weight = (test) => {
      const measured = this.time(test);
      if (measured !== undefined) return measured;
      const known = KNOWN_SECONDS[path.relative(ROOT, test.path).split(path.sep).join('/')];
      return known === undefined ? 0 : known * 1000;
    };
    const size = (test) => test.context.hasteFS.getSize(test.path) ?? 0;
    return [...tests].sort(
      (a, b) =>
        Number(this.hasFailed(b)) - Number(this.hasFailed(a)) || weight(b) - weight(a) || size(b) - size(a),
    );
  }
}

module.exports = SlowestFirstSequencer;
