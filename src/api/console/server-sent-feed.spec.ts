import { EventEmitter } from 'node:events';
import type { ServerResponse } from 'node:http';
import { ServerSentFeed } from './server-sent-feed';

/** The part of a response the feed uses, keeping what it was sent. */
class FakeResponse extends EventEmitter {
  status?: number;
  headers: Record<string, unknown> = {};
  written = '';
  ended = false;
  writableLength = 0;

  writeHead(status: number, headers: Record<string, unknown>) {
    this.status = status;
    this.headers = headers;
    return this;
  }

  write(text: string) {
    this.written += text;
    return true;
  }

  end(text = '') {
    this.written += text;
    this.ended = true;
    this.emit('close');
    return this;
  }

  destroy() {
    this.emit('close');
  }

  frames(): unknown[] {
    return [...this.written.matchAll(/^data: (.*)$/gm)].map((match) => JSON.parse(match[1]));
  }
}

const attach = (feed: ServerSentFeed, response: FakeResponse) =>
  feed.attach(response as unknown as ServerResponse, { 'x-request-id': 'r1' });

describe('ServerSentFeed', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('sends a new reader a snapshot at once, then one per change at most every minIntervalMs', async () => {
    let built = 0;
    const feed = new ServerSentFeed('test', async () => ({ n: ++built }), {
      heartbeatMs: 1_000,
      minIntervalMs: 200,
    });
    const reader = new FakeResponse();
    attach(feed, reader);
    expect(reader.status).toBe(200);
    expect(reader.headers).toMatchObject({
      'content-type': 'text/event-stream; charset=utf-8',
      'x-request-id': 'r1',
    });
    expect(reader.written.startsWith('retry: 1000\n\n')).toBe(true);
    await jest.advanceTimersByTimeAsync(0);
    expect(reader.frames()).toEqual([{ n: 1 }]);

    feed.changed();
    feed.changed();
    await jest.advanceTimersByTimeAsync(100);
    expect(reader.frames()).toHaveLength(1);
    await jest.advanceTimersByTimeAsync(100);
    expect(reader.frames()).toEqual([{ n: 1 }, { n: 2 }]);

    await jest.advanceTimersByTimeAsync(1_000);
    expect(reader.frames()).toEqual([{ n: 1 }, { n: 2 }, { n: 3 }]);
    feed.close();
  });

  it('builds nothing while nobody reads, and ends every reader on close', async () => {
    const build = jest.fn(async () => ({}));
    const feed = new ServerSentFeed('test', build, { heartbeatMs: 1_000, minIntervalMs: 200 });
    feed.changed();
    await jest.advanceTimersByTimeAsync(5_000);
    expect(build).not.toHaveBeenCalled();

    const reader = new FakeResponse();
    attach(feed, reader);
    await jest.advanceTimersByTimeAsync(0);
    feed.close();
    expect(reader.ended).toBe(true);
    expect(feed.readerCount).toBe(0);
    const late = new FakeResponse();
    attach(feed, late);
    expect(late.status).toBe(200);
    expect(late.written).toBe('retry: 1000\n\n');
    expect(late.ended).toBe(true);
  });
});
