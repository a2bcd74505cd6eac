import { GatewayProduct } from '../../market/gateway-records';
import { ExactJson } from '../exact-json';
import { pascalCaseFields, payloadArray, PayloadProblems } from './payload-values';

/** Decimal places beyond this are no asset's precision. */
const MAX_DECIMAL_PLACES = 40;

/**
 * Decodes the GetProducts reply. Keys may be PascalCase or camelCase; `ProductFullName` is optional.
 * Any product that cannot be read rejects the whole reply, with every problem listed.
 */
export function decodeProducts(payload: ExactJson): GatewayProduct[] {
  const problems = new PayloadProblems('GetProducts reply');
  const products: GatewayProduct[] = [];
  payloadArray(payload, 'GetProducts reply').forEach((entry, index) => {
    const product = problems.read((): GatewayProduct => {
      const fields = pascalCaseFields(entry, `[${index}]`);
      const fullName = fields.raw('ProductFullName');
      return {
        productId: fields.integer('ProductId', 0, Number.MAX_SAFE_INTEGER),
        symbol: fields.string('Product').trim(),
        ...(typeof fullName === 'string' && fullName.trim() !== '' ? { fullName: fullName.trim() } : {}),
        decimalPlaces: fields.integer('DecimalPlaces', 0, MAX_DECIMAL_PLACES),
      };
    });
    if (product) products.push(product);
  });
  problems.throwIfAny();
  return products;
}
