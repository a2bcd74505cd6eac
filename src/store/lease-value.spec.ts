import { decodeLease, encodeLease } from './lease-value';

describe('lease value', () => {
  it('puts the token first so that an owner may contain colons', () => {
    expect(encodeLease({ owner: 'ingest-0:pod:7', token: 42 })).toBe('42:ingest-0:pod:7');
    expect(decodeLease('42:ingest-0:pod:7')).toEqual({ owner: 'ingest-0:pod:7', token: 42 });
  });

  it.each(['', 'owner', ':owner', '01:owner', '-1:owner', '42:', '99999999999999999999:owner'])(
    'reads %j as no lease',
    (text) => {
      expect(decodeLease(text)).toBeUndefined();
    },
  );

  it.each([-1, 1.5, Number.MAX_SAFE_INTEGER + 1])('rejects the token %d', (token) => {
    expect(() => encodeLease({ owner: 'a', token })).toThrow('invalid fencing token');
  });
});
