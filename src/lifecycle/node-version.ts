/** The Node.js release line the service is built and tested on (`.node-version`). */
export const REQUIRED_NODE_MAJOR = 24;

/**
 * Why the service refuses to start on this Node.js release, or undefined when it can run: on an older
 * one it would start and then fail in places (the sandbox's exact JSON numbers need `JSON.rawJSON`).
 */
export function nodeVersionProblem(version: string): string | undefined {
  const major = Number(/^v?(\d+)\./.exec(version)?.[1]);
  if (major >= REQUIRED_NODE_MAJOR) return undefined;
  return `Node.js ${REQUIRED_NODE_MAJOR} or later is required; this is ${version}`;
}
