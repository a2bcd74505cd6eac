import { writeFileSync } from 'node:fs';
import WebSocket from 'ws';
import { VersionSeen } from './freshness-matching';

/**
 * The readers of the stream benchmark, in a process of their own so that their work is not the
 * server's: many connections to one `/stream` URL, each subscribed to its plan of channels. While
 * recording they count every frame and time every book message (receipt minus its `ts`); the first
 * reader of each channel also keeps its frames (for the bare server to send again), the first reader
 * of each watched book notes the version (`seq`) of every message and when it came, and the first
 * reader of each trades channel times every trade. Driven over IPC by the benchmark (`ReaderCommand`).
 */

export type ReaderCommand =
  | { readonly op: 'connect'; readonly url: string; readonly plans: readonly (readonly string[])[] }
  | { readonly op: 'record'; readonly watchedBooks: readonly string[] }
  | { readonly op: 'stop'; readonly framesFile: string }
  | { readonly op: 'close' };

export type ReaderReply =
  | { readonly op: 'connected'; readonly subscriptions: number }
  | { readonly op: 'recording' }
  | { readonly op: 'stopped'; readonly result: RecordedReading }
  | { readonly op: 'closed' }
  | { readonly op: 'failed'; readonly error: string };

export interface RecordedReading {
  readonly seconds: number;
  readonly frames: number;
  /** Frames by their `type`. */
  readonly types: Record<string, number>;
  readonly bytes: number;
  /** Snapshots after a connection's first of a channel: conflations and resynchronisations. */
  readonly laterSnapshots: number;
  /** Receipt minus `ts` of every book message of every reader, in ms. */
  readonly bookTsLags: number[];
  /** Receipt minus each trade's time, first reader of each trades channel. */
  readonly tradeLags: number[];
  /** The version of each message of each watched book, with its receipt time. */
  readonly versions: Record<string, VersionSeen[]>;
  /** Connections closed by the server while recording. */
  readonly closed: number;
}

/** The frames of each channel as its first reader received them: ms since recording began, and the text. */
export type RecordedFrames = Record<string, [number, string][]>;

const CONNECT_BATCH = 50;
const TS_FIELD = Buffer.from('"ts":');
const TYPE_START = '{"type":"'.length;
const BOOK_PREFIXES = ['{"type":"snapshot"', '{"type":"update"'];

class Reader {
  private socket?: WebSocket;
  private readonly seenSnapshot = new Set<string>();

  constructor(
    readonly channels: readonly string[],
    private readonly readings: Readings,
  ) {}

  open(url: string): Promise<void> {
    const socket = new WebSocket(`${url.replace(/^http/, 'ws')}/stream`, { perMessageDeflate: false });
    this.socket = socket;
    socket.on('message', (data: Buffer) => this.readings.take(this, data));
    socket.on('close', () => this.readings.lost());
    return new Promise((resolve, reject) => {
      const subscribed = new Set<string>();
      const onReply = (data: Buffer): void => {
        const reply = JSON.parse(data.toString()) as { type: string; channel?: string; message?: string };
        if (reply.type === 'error') reject(new Error(`subscribe: ${reply.message}`));
        if (reply.type === 'subscribed') subscribed.add(reply.channel!);
        if (subscribed.size < this.channels.length) return;
        socket.off('message', onReply);
        resolve();
      };
      socket.once('open', () => {
        socket.on('message', onReply);
        socket.send(JSON.stringify({ op: 'subscribe', channels: this.channels }));
      });
      socket.once('error', reject);
    });
  }

  /** Whether this is the first snapshot of `channel` on this connection. */
  firstSnapshot(channel: string): boolean {
    if (this.seenSnapshot.has(channel)) return false;
    this.seenSnapshot.add(channel);
    return true;
  }

  close(): void {
    this.socket?.terminate();
  }
}

class Readings {
  recording = false;
  private startedAt = 0;
  private frames = 0;
  private types: Record<string, number> = {};
  private bytes = 0;
  private laterSnapshots = 0;
  private closed = 0;
  private bookTsLags: number[] = [];
  private tradeLags: number[] = [];
  private recorded: RecordedFrames = {};
  private versions: Record<string, VersionSeen[]> = {};
  /** The reader that keeps each channel's frames: the first one subscribed to it. */
  private readonly keeper = new Map<string, Reader>();
  private readonly keepers = new Set<Reader>();
  private watched = new Set<string>();

  /** The readers from now on: the first of each channel keeps its frames. */
  serve(readers: readonly Reader[]): void {
    this.keeper.clear();
    this.keepers.clear();
    for (const reader of readers)
      for (const channel of reader.channels)
        if (!this.keeper.has(channel)) {
          this.keeper.set(channel, reader);
          this.keepers.add(reader);
        }
  }

  start(watchedBooks: readonly string[]): void {
    this.watched = new Set(watchedBooks);
    this.versions = Object.fromEntries(watchedBooks.map((channel) => [channel, []]));
    this.recorded = {};
    this.frames = this.bytes = this.laterSnapshots = this.closed = 0;
    this.types = {};
    this.bookTsLags = [];
    this.tradeLags = [];
    this.startedAt = Date.now();
    this.recording = true;
  }

  take(reader: Reader, data: Buffer): void {
    const now = Date.now();
    const prefix = data.toString('latin1', 0, 24);
    const isBook = BOOK_PREFIXES.some((start) => prefix.startsWith(start));
    // Every connection's first snapshot of a channel comes before recording: snapshots later are conflations or resyncs.
    if (!this.recording) {
      if (isBook && prefix.startsWith(BOOK_PREFIXES[0])) reader.firstSnapshot(channelOf(data.toString()));
      return;
    }
    this.frames++;
    const type = prefix.slice(TYPE_START).split('"')[0];
    this.types[type] = (this.types[type] ?? 0) + 1;
    this.bytes += data.length;
    if (isBook) {
      const at = data.lastIndexOf(TS_FIELD);
      if (at >= 0)
        this.bookTsLags.push(now - Number(data.toString('latin1', at + TS_FIELD.length, data.length - 1)));
    }
    if (!this.keepers.has(reader) && !(isBook && prefix.startsWith(BOOK_PREFIXES[0]))) return;
    const text = data.toString();
    const message = JSON.parse(text) as {
      type: string;
      channel?: string;
      seq?: number;
      trades?: { time: number }[];
    };
    if (message.channel === undefined) return;
    if (message.type === 'snapshot' && !reader.firstSnapshot(message.channel)) this.laterSnapshots++;
    if (this.keeper.get(message.channel) !== reader) return;
    (this.recorded[message.channel] ??= []).push([now - this.startedAt, text]);
    if (this.watched.has(message.channel) && message.seq !== undefined)
      this.versions[message.channel].push({ time: now, version: message.seq });
    if (message.type === 'trades') for (const trade of message.trades!) this.tradeLags.push(now - trade.time);
  }

  lost(): void {
    if (this.recording) this.closed++;
  }

  stop(framesFile: string): RecordedReading {
    this.recording = false;
    writeFileSync(framesFile, JSON.stringify(this.recorded));
    return {
      seconds: (Date.now() - this.startedAt) / 1000,
      frames: this.frames,
      types: this.types,
      bytes: this.bytes,
      laterSnapshots: this.laterSnapshots,
      bookTsLags: this.bookTsLags,
      tradeLags: this.tradeLags,
      versions: this.versions,
      closed: this.closed,
    };
  }
}

function channelOf(text: string): string {
  return (JSON.parse(text) as { channel: string }).channel;
}

function main(): void {
  const readings = new Readings();
  let readers: Reader[] = [];
  const reply = (message: ReaderReply): void => void process.send?.(message);
  process.on('message', (command: ReaderCommand) => {
    void (async () => {
      switch (command.op) {
        case 'connect': {
          for (const reader of readers) reader.close();
          readers = command.plans.map((channels) => new Reader(channels, readings));
          readings.serve(readers);
          for (let i = 0; i < readers.length; i += CONNECT_BATCH)
            await Promise.all(readers.slice(i, i + CONNECT_BATCH).map((reader) => reader.open(command.url)));
          return reply({
            op: 'connected',
            subscriptions: readers.reduce((sum, reader) => sum + reader.channels.length, 0),
          });
        }
        case 'record':
          readings.start(command.watchedBooks);
          return reply({ op: 'recording' });
        case 'stop':
          return reply({ op: 'stopped', result: readings.stop(command.framesFile) });
        case 'close':
          for (const reader of readers) reader.close();
          readers = [];
          return reply({ op: 'closed' });
      }
    })().catch((error: unknown) => reply({ op: 'failed', error: String(error) }));
  });
}

if (require.main === module) main();
