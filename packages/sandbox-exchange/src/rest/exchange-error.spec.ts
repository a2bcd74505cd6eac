import { HttpStatus } from '@nestjs/common';
import { errorCodeFor, ExchangeError } from './exchange-error';

describe('errorCodeFor', () => {
  it.each([
    [400, 'bad_request'],
    [404, 'not_found'],
    [413, 'payload_too_large'],
    [415, 'unsupported_media_type'],
    [429, 'too_many_requests'],
    [500, 'unexpected'],
    [503, ''],
  ])('gives %i the code %p', (status, code) => {
    expect(errorCodeFor(status)).toBe(code);
  });
});

describe('ExchangeError', () => {
  it('carries the exchange error body with one entry per problem', () => {
    const error = ExchangeError.badRequest(['type: bad', 'count: bad']);
    expect(error.getStatus()).toBe(HttpStatus.BAD_REQUEST);
    expect(error.getResponse()).toEqual({
      errors: [
        { code: 'bad_request', message: 'type: bad' },
        { code: 'bad_request', message: 'count: bad' },
      ],
    });
  });

  it('answers 404 for something not found', () => {
    const error = ExchangeError.notFound('Instrument "x" not found');
    expect(error.getStatus()).toBe(404);
    expect(error.getResponse()).toEqual({
      errors: [{ code: 'not_found', message: 'Instrument "x" not found' }],
    });
  });
});
