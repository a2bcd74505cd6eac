import { consoleAllows } from './console-access';

describe('consoleAllows', () => {
  it('lets in the loopback and private ranges by default', () => {
    const allows = consoleAllows('loopback,uniquelocal');
    expect(
      ['127.0.0.1', '::1', '10.1.2.3', '192.168.0.9', '172.20.0.1', '::ffff:10.0.0.1'].map(allows),
    ).toEqual([true, true, true, true, true, true]);
    expect(['8.8.8.8', '2001:db8::1', ''].map(allows)).toEqual([false, false, false]);
  });

  it('takes addresses and CIDR ranges', () => {
    const allows = consoleAllows('203.0.113.0/24, 198.51.100.7');
    expect(allows('203.0.113.200')).toBe(true);
    expect(allows('198.51.100.7')).toBe(true);
    expect(allows('198.51.100.8')).toBe(false);
    expect(allows('127.0.0.1')).toBe(false);
  });

  it('lets every address in with *', () => {
    expect(consoleAllows('*')('8.8.8.8')).toBe(true);
  });
});
