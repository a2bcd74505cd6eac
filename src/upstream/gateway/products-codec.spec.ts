import { parseExactJson } from '../exact-json';
import { decodeProducts } from './products-codec';

describe('GetProducts codec', () => {
  it('reads PascalCase and camelCase products, the full name when there is one', () => {
    const payload = parseExactJson(
      '[{"OMSId":1,"ProductId":1,"Product":"BTC","ProductFullName":"Bitcoin","ProductType":"CryptoCurrency",' +
        '"DecimalPlaces":8,"TickSize":0.0000000100000000000000000000,"NoFees":false},' +
        '{"omsId":1,"productId":2,"product":"USD","productFullName":"","productType":1,"decimalPlaces":"2"},' +
        '{"ProductId":3,"Product":"PEPE","DecimalPlaces":18}]',
    );
    expect(decodeProducts(payload)).toEqual([
      { productId: 1, symbol: 'BTC', fullName: 'Bitcoin', decimalPlaces: 8 },
      { productId: 2, symbol: 'USD', decimalPlaces: 2 },
      { productId: 3, symbol: 'PEPE', decimalPlaces: 18 },
    ]);
  });

  it('rejects products without an id, a symbol or decimal places', () => {
    expect(() => decodeProducts(parseExactJson('[{"Product":"BTC","DecimalPlaces":8}]'))).toThrow(
      'malformed GetProducts reply: [0].ProductId: expected an integer',
    );
    expect(() =>
      decodeProducts(parseExactJson('[{"ProductId":1,"Product":"BTC","DecimalPlaces":1.5}]')),
    ).toThrow('[0].DecimalPlaces');
    expect(() => decodeProducts(parseExactJson('[{"ProductId":1,"DecimalPlaces":2}]'))).toThrow(
      '[0].Product',
    );
  });
});
