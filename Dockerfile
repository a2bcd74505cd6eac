# syntax=docker/dockerfile:1

# The Node.js release the service is built, tested and shipped on (the same as .node-version).
ARG NODE_VERSION=24.21.0

# Build stage: install every dependency from the lockfile, then compile.
FROM node:${NODE_VERSION}-bookworm-slim AS build
WORKDIR /app
# Lockfile and manifests first, so that dependency layers are reused when only sources change.
COPY package.json package-lock.json ./
COPY packages/sandbox-exchange/package.json ./packages/sandbox-exchange/
COPY packages/exchange-fixtures/package.json ./packages/exchange-fixtures/
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json nest-cli.json ./
COPY packages/sandbox-exchange/tsconfig.json packages/sandbox-exchange/tsconfig.build.json ./packages/sandbox-exchange/
COPY packages/sandbox-exchange/src ./packages/sandbox-exchange/src
COPY scripts/build-console.js ./scripts/
COPY src ./src
RUN npm run build

# Production dependencies only, installed separately so that no dev tool reaches the image.
FROM node:${NODE_VERSION}-bookworm-slim AS deps
WORKDIR /app
COPY package.json package-lock.json ./
COPY packages/sandbox-exchange/package.json ./packages/sandbox-exchange/
COPY packages/exchange-fixtures/package.json ./packages/exchange-fixtures/
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force

FROM node:${NODE_VERSION}-bookworm-slim AS runtime
ENV NODE_ENV=production
# The heap for a 512 MiB container (the chart's API and combined pods): an old generation of half the
# limit, which also keeps V8 from letting garbage grow to several times the live heap between full
# collections, and 16 MiB semi-spaces. Without it the heap is sized from whatever memory Node sees: on
# a large host without a limit RSS grew 20 % in 30 minutes (RELIABILITY.md, Soak run). The Helm chart
# sets it from each role's memory limit; set NODE_OPTIONS yourself for another limit.
ENV NODE_OPTIONS="--max-old-space-size=256 --max-semi-space-size=16"
# glibc serves blocks of 128 KiB and more (response bodies, the compressors' buffers) by mmap and
# returns them on free, but after the first such free it raises that threshold to the freed size, and
# later large blocks come from the main heap, which grows as bodies grow and does not shrink. A fixed
# threshold keeps the native memory flat, at no measurable CPU cost (RELIABILITY.md, Soak run).
ENV MALLOC_MMAP_THRESHOLD_=131072
WORKDIR /app
# Owned by root and not writable by the user the process runs as: the image's code cannot be changed
# at run time, and the process writes nothing to its filesystem, so it runs with a read-only root.
COPY --from=deps /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
# The sandbox exchange, which runs only with SANDBOX=true (a trial): node_modules links to it.
COPY --from=build /app/packages/sandbox-exchange/dist ./packages/sandbox-exchange/dist
COPY packages/sandbox-exchange/package.json ./packages/sandbox-exchange/
COPY package.json ./
USER node
EXPOSE 3000
# node runs as PID 1 and handles SIGTERM and SIGINT itself: readiness turns false, HTTP drains,
# the ingest releases its leases and closes its connections, then it exits 0 (see README, Shutdown).
STOPSIGNAL SIGTERM
# For plain Docker; Kubernetes probes /health/live and /health/ready itself. No curl in the image.
HEALTHCHECK --interval=15s --timeout=3s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/health/live').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# Without UPSTREAM_BASE_URL (or SANDBOX=true for a trial) it stops at boot, naming the setting.
CMD ["node", "dist/main.js"]
