import { checkRecord, optional, required } from './field-rules';
import { parseJsonBody } from './json-body';

const RULES = [
  required('last', 'decimal'),
  required('baseVolume', 'decimal'),
  required('percentChange', 'signed-decimal'),
  required('isFrozen', 'flag-text'),
  optional('trade_id', 'integer'),
];

function problems(json: string) {
  return checkRecord(parseJsonBody(json), RULES, '/summary BTC_USDT').map(
    ({ check, severity, where, detail }) => `${severity} ${check} ${where}: ${detail}`,
  );
}

describe('checkRecord', () => {
  it('passes a record written as the format says', () => {
    expect(
      problems('{"last":"65000.10","baseVolume":"0.00000001","percentChange":"-1.25","isFrozen":"0"}'),
    ).toEqual([]);
  });

  it('fails a JSON number where a decimal string belongs, keeping the number as written', () => {
    expect(problems('{"last":"1","baseVolume":1.2e-7,"percentChange":"0.00","isFrozen":"0"}')).toEqual([
      'fail decimal-strings /summary BTC_USDT.baseVolume: the JSON number 1.2e-7, not a decimal string',
    ]);
  });

  it('fails exponent notation and a negative volume inside strings', () => {
    expect(problems('{"last":"1e-7","baseVolume":"-2","percentChange":"0.00","isFrozen":"0"}')).toEqual([
      'fail decimal-strings /summary BTC_USDT.last: exponent notation "1e-7"',
      'fail decimal-strings /summary BTC_USDT.baseVolume: negative "-2"',
    ]);
  });

  it('fails a null last price: every value is a string', () => {
    expect(problems('{"last":null,"baseVolume":"0","percentChange":"0.00","isFrozen":"1"}')).toEqual([
      'fail decimal-strings /summary BTC_USDT.last: expected a decimal string, got null',
    ]);
  });

  it('tells a key in another letter case from a missing one', () => {
    expect(problems('{"last":"1","percentChange":"0.00","is_frozen":"0"}')).toEqual([
      'fail required-fields /summary BTC_USDT.baseVolume: missing',
      'fail key-case /summary BTC_USDT.isFrozen: written "is_frozen", the format names it "isFrozen"',
    ]);
  });

  it('checks types of flags and integers, optional fields only when present', () => {
    expect(
      problems('{"last":"1","baseVolume":"1","percentChange":"1.00","isFrozen":0,"trade_id":"17"}'),
    ).toEqual([
      'fail field-types /summary BTC_USDT.isFrozen: expected "0" or "1", got 0',
      'fail field-types /summary BTC_USDT.trade_id: expected a JSON integer, got the string "17"',
    ]);
  });
});
