import { SerialWork } from './serial-work';

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('SerialWork', () => {
  it('runs tasks one at a time, in order, each waiting key once', async () => {
    const work = new SerialWork();
    const log: string[] = [];
    let release!: () => void;
    work.add('a', async () => {
      log.push('a starts');
      await new Promise<void>((resolve) => (release = resolve));
      log.push('a ends');
    });
    work.add('b', async () => log.push('b'));
    work.add('b', async () => log.push('b again'));
    work.add('a', async () => log.push('a again'));
    await tick();
    expect(log).toEqual(['a starts']);
    expect(work.size).toBe(2);
    release();
    await tick();
    expect(log).toEqual(['a starts', 'a ends', 'b', 'a again']);
  });

  it('goes on after a task fails', async () => {
    const work = new SerialWork();
    const log: string[] = [];
    work.add('a', async () => {
      throw new Error('REST down');
    });
    work.add('b', async () => log.push('b'));
    await tick();
    expect(log).toEqual(['b']);
  });

  it('drops waiting tasks when stopped, after the one under way', async () => {
    const work = new SerialWork();
    const log: string[] = [];
    work.add('a', async () => {
      await tick();
      log.push('a');
    });
    work.add('b', async () => log.push('b'));
    await work.stop();
    work.add('c', async () => log.push('c'));
    await tick();
    expect(log).toEqual(['a']);
  });
});
