/** Resolves when `condition` holds, polling every 10 ms; rejects after `timeoutMs`. */
export async function waitUntil(
  condition: () => boolean,
  timeoutMs = 5_000,
  what = 'condition',
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`${what} not met within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
