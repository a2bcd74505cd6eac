import { OwnRequestWindow } from './own-request-window';

describe('OwnRequestWindow', () => {
  it('has room for `limit` requests, then none while they all run', () => {
    const window = new OwnRequestWindow(2, 1000);
    expect(window.waitMs(0)).toBe(0);
    window.start();
    expect(window.waitMs(0)).toBe(0);
    window.start();
    expect(window.waitMs(5000)).toBe(Infinity);
  });

  it('counts an ended request for the hold after its end, not after its start', () => {
    const window = new OwnRequestWindow(1, 1000);
    window.start();
    window.end(400);
    expect(window.waitMs(400)).toBe(1000);
    expect(window.waitMs(1399)).toBe(1);
    expect(window.waitMs(1400)).toBe(0);
  });

  it('waits for the earliest of several ended requests', () => {
    const window = new OwnRequestWindow(2, 1000);
    window.start();
    window.start();
    window.end(100);
    window.end(300);
    expect(window.waitMs(600)).toBe(500);
    expect(window.waitMs(1100)).toBe(0);
    window.start();
    expect(window.waitMs(1100)).toBe(200);
  });

  it('rejects impossible limits and an end without a start', () => {
    expect(() => new OwnRequestWindow(0, 1000)).toThrow(RangeError);
    expect(() => new OwnRequestWindow(1.5, 1000)).toThrow(RangeError);
    expect(() => new OwnRequestWindow(1, -1)).toThrow(RangeError);
    expect(() => new OwnRequestWindow(1, 1000).end(0)).toThrow('no request is running');
  });
});
