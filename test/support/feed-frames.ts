/**
 * Reads a server-sent-events feed of JSON snapshots until one satisfies `wanted` (the first, by
 * default), and returns it; fails after `timeoutMs`.
 */
export async function feedFrame<T = Record<string, unknown>>(
  url: string,
  wanted: (frame: T) => boolean = () => true,
  timeoutMs = 10_000,
  headers: Record<string, string> = {},
): Promise<T> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  let last: T | undefined;
  try {
    const response = await fetch(url, { signal: controller.signal, headers });
    if (!response.ok) throw new Error(`${url}: ${response.status}`);
    const reader = response.body!.getReader();
    let text = '';
    for (;;) {
      const { value, done } = await reader.read();
      if (done) throw new Error(`${url} ended without the snapshot wanted`);
      text += Buffer.from(value).toString('utf8');
      let end: number;
      while ((end = text.indexOf('\n\n')) !== -1) {
        const event = text.slice(0, end);
        text = text.slice(end + 2);
        const data = /^data: (.*)$/m.exec(event);
        if (!data) continue;
        last = JSON.parse(data[1]) as T;
        if (wanted(last)) return last;
      }
    }
  } catch (error) {
    if (controller.signal.aborted)
      throw new Error(
        `${url}: no snapshot as wanted within ${timeoutMs} ms; the last: ${JSON.stringify(last)}`,
      );
    throw error;
  } finally {
    clearTimeout(timer);
    controller.abort();
  }
}
