import { FrameMeaning, readSpecFixture } from '../testing/spec-fixtures';
import { decodeProducts } from './products-codec';
import { envelopeOf, expectedEnvelope, fixtureFrame } from './testing/fixture-frame';

interface ProductMeaning {
  readonly ProductId: string;
  readonly Product: string;
  readonly DecimalPlaces: string;
}

describe('decodeProducts against the specification fixture', () => {
  it('reads every product of the GetProducts reply', () => {
    const fixture = readSpecFixture<FrameMeaning<ProductMeaning[]>>('gateway/products.json');
    const frame = fixtureFrame(fixture);
    expect(envelopeOf(frame)).toEqual(expectedEnvelope(fixture));
    expect(decodeProducts(frame.payload)).toEqual(
      fixture.means.o.map((product) => ({
        productId: Number(product.ProductId),
        symbol: product.Product,
        decimalPlaces: Number(product.DecimalPlaces),
      })),
    );
  });
});
