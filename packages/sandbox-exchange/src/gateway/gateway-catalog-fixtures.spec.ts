import { fixtureExchange } from '../testing/fixture-exchange';
import { readSpecFixture } from '../testing/spec-fixtures';
import { fieldsBut, Fields, frameFields } from './testing/frame-fields';
import { fixtureGateway } from './testing/fixture-gateway';

function getProducts() {
  const fixture = readSpecFixture<unknown>('gateway/products.json');
  const [reply] = fixtureGateway(fixtureExchange().exchange).call(fixture.request!);
  return { expected: frameFields<Fields[]>(fixture.wire), actual: frameFields<Fields[]>(reply) };
}

describe('the instrument and product lists against the specification fixtures', () => {
  it('answers GetInstruments with the fixture byte for byte', () => {
    const fixture = readSpecFixture<unknown>('gateway/instruments.json');
    const gateway = fixtureGateway(fixtureExchange().exchange);
    expect(gateway.call(fixture.request!)).toEqual([fixture.wire]);
  });

  it('answers GetProducts with the fixture field by field, in order, with exact numbers', () => {
    const { expected, actual } = getProducts();
    expect(actual.envelope).toEqual(expected.envelope);
    const specFields = (row: Fields) => fieldsBut(row, 'ProductType', 'ProductFullName');
    expect(actual.payload.map(specFields)).toEqual(expected.payload.map(specFields));
  });

  it('writes ProductType as a name where spec 2.10 gives its code, and adds ProductFullName', () => {
    const { expected, actual } = getProducts();
    expect(expected.payload.map((row) => row.ProductType)).toEqual(['2', '2', '2']);
    expect(actual.payload.map((row) => [row.ProductType, row.ProductFullName])).toEqual(
      expected.payload.map((row) => ['CryptoCurrency', row.Product]),
    );
  });
});
