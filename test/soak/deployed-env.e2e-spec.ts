import { deployedRuntimeEnv } from './deployed-env';

describe('deployedRuntimeEnv', () => {
  it('reads the ENV of the last stage only, quoted values whole and several settings on a line', () => {
    const dockerfile = [
      'FROM node:20 AS build',
      'ENV BUILD_ONLY=1',
      'FROM node:20-slim AS runtime',
      'ENV NODE_ENV=production',
      '# ENV COMMENTED=1',
      'ENV NODE_OPTIONS="--max-old-space-size=256 --max-semi-space-size=16" TZ=UTC',
      'CMD ["node", "dist/main.js"]',
    ].join('\n');
    expect(deployedRuntimeEnv(dockerfile)).toEqual({
      NODE_ENV: 'production',
      NODE_OPTIONS: '--max-old-space-size=256 --max-semi-space-size=16',
      TZ: 'UTC',
    });
  });

  it("reads the project's Dockerfile, which bounds the heap", () => {
    expect(deployedRuntimeEnv().NODE_OPTIONS).toMatch(/--max-old-space-size=\d+/);
  });
});
