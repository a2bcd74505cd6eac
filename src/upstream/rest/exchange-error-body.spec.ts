import { parseExchangeErrors } from './exchange-error-body';

describe('parseExchangeErrors', () => {
  it('reads the documented error body', () => {
    expect(
      parseExchangeErrors('{"errors":[{"code":"","message":"System is currently overloaded"}]}'),
    ).toEqual([{ code: '', message: 'System is currently overloaded' }]);
    expect(parseExchangeErrors('{"errors":[{"code":"unexpected","message":"a"},{"message":"b"},7]}')).toEqual(
      [
        { code: 'unexpected', message: 'a' },
        { code: '', message: 'b' },
      ],
    );
  });

  it('gives nothing for other bodies', () => {
    expect(parseExchangeErrors('<html>Bad gateway</html>')).toEqual([]);
    expect(parseExchangeErrors('{"message":"x"}')).toEqual([]);
    expect(parseExchangeErrors('')).toEqual([]);
  });
});
