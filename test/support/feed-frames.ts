import { get, IncomingMessage } from 'node:http';

/**
 * Reads a server-sent-events feed of JSON snapshots until one satisfies `wanted` (the first, by
 * default), and returns it; fails after `timeoutMs`. The connection is destroyed either way, as a
 * browser's EventSource closes it (fetch's abort can leave it open to the server).
 */
export function feedFrame<T = Record<string, unknown>>(
  url: string,
  wanted: (frame: T) => boolean = () => true,
  timeoutMs = 10_000,
  headers: Record<string, string> = {},
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    let last: T | undefined;
    let text = '';
    const request = get(url, { headers }, (response: IncomingMessage) => {
      if (response.statusCode !== 200) return finish(new Error(`${url}: ${response.statusCode}`));
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => {
        text += chunk;
        let end: number;
        while ((end = text.indexOf('\n\n')) !== -1) {
          const data = /^data: (.*)$/m.exec(text.slice(0, end));
          text = text.slice(end + 2);
          if (!data) continue;
          last = JSON.parse(data[1]) as T;
          if (wanted(last)) return finish(undefined, last);
        }
      });
      response.on('end', () => finish(new Error(`${url} ended without the snapshot wanted`)));
    });
    const timer = setTimeout(
      () =>
        finish(
          new Error(
            `${url}: no snapshot as wanted within ${timeoutMs} ms; the last: ${JSON.stringify(last)}`,
          ),
        ),
      timeoutMs,
    );
    request.on('error', (error) => finish(error));
    let done = false;
    function finish(error: Error | undefined, frame?: T): void {
      if (done) return;
      done = true;
      clearTimeout(timer);
      request.destroy();
      if (error) reject(error);
      else resolve(frame!);
    }
  });
}
