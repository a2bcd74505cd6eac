/** What a shared feed's driver does: started with its first reader, stopped after its last. */
export interface FeedDriver {
  start(): void;
  stop(): void;
}

interface Shared<Driver, Message> {
  readonly driver: Driver;
  readonly sinks: Set<(message: Message) => void>;
}

/** The feeds of a process, one per instrument that has a reader, each shared by all its readers. */
export class SharedFeeds<Driver extends FeedDriver, Message> {
  private readonly feeds = new Map<string, Shared<Driver, Message>>();

  /** How many instruments are followed. */
  get size(): number {
    return this.feeds.size;
  }

  /**
   * Delivers the instrument's messages to `sink`, from the feed `create` makes for the first reader;
   * `release` stops that, and the last release stops the feed.
   */
  follow(
    instrument: string,
    sink: (message: Message) => void,
    create: (deliver: (message: Message) => void) => Driver,
  ): { readonly driver: Driver; release(): void } {
    let feed = this.feeds.get(instrument);
    if (!feed) {
      const sinks = new Set<(message: Message) => void>();
      feed = {
        driver: create((message) => {
          for (const each of sinks) each(message);
        }),
        sinks,
      };
      this.feeds.set(instrument, feed);
      feed.driver.start();
    }
    const shared = feed;
    shared.sinks.add(sink);
    return {
      driver: shared.driver,
      release: () => {
        shared.sinks.delete(sink);
        if (shared.sinks.size > 0 || this.feeds.get(instrument) !== shared) return;
        shared.driver.stop();
        this.feeds.delete(instrument);
      },
    };
  }

  close(): void {
    for (const { driver } of this.feeds.values()) driver.stop();
    this.feeds.clear();
  }
}
