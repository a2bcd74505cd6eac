import type { IncomingMessage } from 'node:http';
import { requestIdOf } from './request-id';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

function withHeader(value?: string | string[]): IncomingMessage {
  return { headers: value === undefined ? {} : { 'x-request-id': value } } as IncomingMessage;
}

describe('requestIdOf', () => {
  it('keeps a sane incoming X-Request-Id', () => {
    expect(requestIdOf(withHeader('lb-7f3a.42:9'))).toBe('lb-7f3a.42:9');
  });

  it.each([
    ['missing', undefined],
    ['empty', ''],
    ['too long', 'x'.repeat(129)],
    ['with a line break', 'abc\n{"level":"fatal"}'],
    ['with spaces or quotes', 'a b"c'],
    ['repeated', ['a', 'b']],
  ])('generates a UUID when the incoming one is %s', (_case, value) => {
    expect(requestIdOf(withHeader(value))).toMatch(UUID);
  });

  it('generates a new id for every request', () => {
    expect(requestIdOf(withHeader())).not.toBe(requestIdOf(withHeader()));
  });
});
