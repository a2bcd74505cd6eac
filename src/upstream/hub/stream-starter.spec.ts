import { HubConnection } from '@microsoft/signalr';
import { StreamStarter } from './stream-starter';

class Stream {
  openedOn: HubConnection[] = [];
  constructor(readonly name: string) {}
  openOn(connection: HubConnection): void {
    this.openedOn.push(connection);
  }
}

describe('StreamStarter', () => {
  const connection = {} as HubConnection;
  let connected: HubConnection | undefined;
  let starter: StreamStarter<Stream>;

  beforeEach(() => {
    jest.useFakeTimers();
    connected = connection;
    starter = new StreamStarter(() => connected, 2, 1000);
  });
  afterEach(() => {
    starter.reset();
    jest.useRealTimers();
  });

  const streams = (count: number) => Array.from({ length: count }, (_, i) => new Stream(`s${i}`));
  const opened = (all: Stream[]) => all.filter((s) => s.openedOn.length > 0).map((s) => s.name);

  it('opens at most the allowed number at once and the next one as each starts', () => {
    const all = streams(5);
    for (const stream of all) starter.request(stream);
    expect(opened(all)).toEqual(['s0', 's1']);
    starter.started(all[1]);
    expect(opened(all)).toEqual(['s0', 's1', 's2']);
    starter.started(all[0]);
    starter.started(all[2]);
    expect(opened(all)).toEqual(['s0', 's1', 's2', 's3', 's4']);
  });

  it('frees the slot of a stream whose first item is late', () => {
    const all = streams(3);
    for (const stream of all) starter.request(stream);
    jest.advanceTimersByTime(999);
    expect(opened(all)).toEqual(['s0', 's1']);
    jest.advanceTimersByTime(1);
    expect(opened(all)).toEqual(['s0', 's1', 's2']);
  });

  it('waits for a connection, and forgets everything when it is lost', () => {
    connected = undefined;
    const all = streams(3);
    for (const stream of all) starter.request(stream);
    expect(opened(all)).toEqual([]);
    starter.reset();
    connected = connection;
    starter.request(all[2]);
    expect(opened(all)).toEqual(['s2']);
  });

  it('asks once for a stream requested twice, and drops a forgotten one', () => {
    const all = streams(4);
    starter.request(all[0]);
    starter.request(all[0]);
    starter.request(all[1]);
    starter.request(all[2]);
    starter.forget(all[2]);
    starter.started(all[0]);
    starter.started(all[1]);
    expect(all.map((s) => s.openedOn.length)).toEqual([1, 1, 0, 0]);
  });
});
