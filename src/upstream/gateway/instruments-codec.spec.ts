import { parseExactJson } from '../exact-json';
import { GatewayPayloadError } from './gateway-payload-error';
import { decodeInstruments } from './instruments-codec';

describe('GetInstruments codec', () => {
  it('reads PascalCase records with string enums, as current gateways send them', () => {
    const payload = parseExactJson(
      '[{"OMSId":1,"InstrumentId":3,"Symbol":"LTCBTC","Product1":3,"Product1Symbol":"LTC","Product2":1,' +
        '"Product2Symbol":"BTC","InstrumentType":"Standard","VenueInstrumentId":3,"VenueId":1,"SortIndex":0,' +
        '"SessionStatus":"Running","PreviousSessionStatus":"Stopped","SessionStatusDateTime":"2020-11-25T19:42:15.245Z",' +
        '"SelfTradePrevention":true,"QuantityIncrement":0.00000001,"PriceIncrement":0.00000001}]',
    );
    expect(decodeInstruments(payload)).toEqual([
      { instrumentId: 3, symbol: 'LTCBTC', baseSymbol: 'LTC', quoteSymbol: 'BTC', sessionStatus: 'Running' },
    ]);
  });

  it('reads camelCase records with numeric enums, as older gateways send them', () => {
    const payload = parseExactJson(
      '[{"omsId":1,"instrumentId":84,"symbol":"ETHEUR","product1Symbol":"ETH","product2Symbol":"EUR","sessionStatus":3},' +
        '{"instrumentId":"85","symbol":"LTCEUR","product1Symbol":"LTC","product2Symbol":"EUR","sessionStatus":"4"},' +
        '{"instrumentId":86,"symbol":"BTCEUR","product1Symbol":"BTC","product2Symbol":"EUR"}]',
    );
    expect(decodeInstruments(payload).map((i) => [i.instrumentId, i.sessionStatus])).toEqual([
      [84, 'Stopped'],
      [85, 'Starting'],
      [86, 'Unknown'],
    ]);
  });

  it('prefers the PascalCase key when both spellings are present', () => {
    const payload = parseExactJson(
      '[{"InstrumentId":1,"instrumentId":2,"Symbol":"A","Product1Symbol":"B","Product2Symbol":"C","sessionStatus":"paused"}]',
    );
    expect(decodeInstruments(payload)[0]).toMatchObject({ instrumentId: 1, sessionStatus: 'Paused' });
  });

  it('rejects the reply listing every bad instrument', () => {
    const payload = parseExactJson(
      '[{"InstrumentId":1,"Symbol":"","Product1Symbol":"B","Product2Symbol":"C"},' +
        '{"InstrumentId":2,"Symbol":"BC","Product1Symbol":"B","Product2Symbol":"C","SessionStatus":"Closed"},' +
        '{"InstrumentId":-3,"Symbol":"BC","Product1Symbol":"B","Product2Symbol":"C"}, 7]',
    );
    let error: GatewayPayloadError | undefined;
    try {
      decodeInstruments(payload);
    } catch (caught) {
      error = caught as GatewayPayloadError;
    }
    expect(error).toBeInstanceOf(GatewayPayloadError);
    expect(error?.problems).toEqual([
      '[0].Symbol: expected a non-empty string, got ""',
      '[1].SessionStatus: expected one of Unknown, Running, Paused, Stopped, Starting or 0-4, got "Closed"',
      '[2].InstrumentId: expected an integer from 0 to 9007199254740991, got "-3"',
      '[3]: expected an object, got "7"',
    ]);
    expect(() => decodeInstruments(parseExactJson('{"result":false}'))).toThrow(
      'malformed GetInstruments reply: expected an array',
    );
  });
});
