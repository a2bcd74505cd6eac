#!/usr/bin/env node
// Adds lockfile entries for platform-specific optional packages that npm could not resolve.
//
// A registry mirror that carries only this platform's binaries (e.g. @swc/core-linux-x64-gnu but not
// @swc/core-darwin-arm64) makes `npm install` leave the other platforms' optional packages out of
// package-lock.json, and `npm ci` then refuses the lockfile as out of sync. Each missing package gets
// an entry with its version and the os/cpu/libc it needs: npm skips it on other platforms and
// resolves it from the registry by version on its own. Run after every dependency change.
const fs = require('node:fs');
const path = require('node:path');

const PLATFORM =
  /-(darwin|linux|win32|android|freebsd|openharmony)-(x64|arm64|arm|ia32|ppc64|s390x|riscv64|loong64)(?:-(gnu|gnueabihf|musl|musleabihf|eabi|msvc))?$/;
const LIBC = { gnu: 'glibc', gnueabihf: 'glibc', musl: 'musl', musleabihf: 'musl' };

const file = path.join(__dirname, '..', 'package-lock.json');
const lock = JSON.parse(fs.readFileSync(file, 'utf8'));
const packages = lock.packages;
const added = [];
for (const owner of Object.values(packages)) {
  for (const [name, version] of Object.entries(owner.optionalDependencies ?? {})) {
    const key = `node_modules/${name}`;
    if (packages[key]) continue;
    const platform = PLATFORM.exec(name);
    if (!platform) {
      process.stderr.write(`cannot tell the platform of ${name}; left out\n`);
      continue;
    }
    const [, os, cpu, abi] = platform;
    packages[key] = {
      version,
      ...(owner.dev ? { dev: true } : {}),
      optional: true,
      os: [os],
      cpu: [cpu],
      ...(LIBC[abi] ? { libc: [LIBC[abi]] } : {}),
    };
    added.push(`${name}@${version}`);
  }
}
const [root, ...rest] = Object.entries(packages);
lock.packages = Object.fromEntries([root, ...rest.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))]);
fs.writeFileSync(file, `${JSON.stringify(lock, null, 2)}\n`);
process.stdout.write(`${added.length} optional platform packages added to the lockfile\n`);
