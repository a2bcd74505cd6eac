# syntax=docker/dockerfile:1

# Build stage: install every dependency from the lockfile, then compile.
FROM node:20-bookworm-slim AS build
WORKDIR /app
# Lockfile first, so that dependency layers are reused when only sources change.
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json nest-cli.json ./
COPY src ./src
RUN npm run build

# Production dependencies only, installed separately so that no dev tool reaches the image.
FROM node:20-bookworm-slim AS deps
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force

FROM node:20-bookworm-slim AS runtime
ENV NODE_ENV=production
WORKDIR /app
COPY --from=deps --chown=node:node /app/node_modules ./node_modules
COPY --from=build --chown=node:node /app/dist ./dist
COPY --chown=node:node package.json ./
# The image writes nothing to its own filesystem, so it runs with a read-only root.
USER node
EXPOSE 3000
# node runs as PID 1 and handles SIGTERM itself (graceful shutdown drains HTTP and releases leases).
CMD ["node", "dist/main.js"]
