import type { NestFastifyApplication } from '@nestjs/platform-fastify';

const LINE = /^([│ ]*)[├└]── (.*?)(?: \(([A-Z, ]+)\))?$/u;

/**
 * The paths Fastify serves for `method`, in OpenAPI's notation (`/orderbook/{instrument}`), read
 * from its route tree: each line names a segment below the line above it at one indent less.
 */
export function servedRoutes(app: NestFastifyApplication, method = 'GET'): string[] {
  const tree = app.getHttpAdapter().getInstance().printRoutes({ commonPrefix: false, method });
  const parents: string[] = [];
  const paths: string[] = [];
  for (const line of tree.split('\n')) {
    const match = LINE.exec(line);
    if (!match) continue;
    const depth = match[1].length / 4;
    const path = (parents[depth - 1] ?? '') + match[2];
    parents[depth] = path;
    parents.length = depth + 1;
    if (match[3]?.split(', ').includes(method)) paths.push(path.replace(/:(\w+)/g, '{$1}'));
  }
  return paths;
}
