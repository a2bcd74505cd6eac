import { BookMessage } from '../../market/book-update';
import { ExactJson } from '../exact-json';
import { FieldProblems, JsonFields } from '../json-fields';
import { readPriceLevels } from '../price-levels';
import { MalformedBodyError } from '../malformed-body-error';

/**
 * Decodes the body of `GET /marketdata/instruments/{instrument}/depth` into a snapshot message.
 * Both sides arrive sorted ascending (the best bid last), so nothing here relies on array order;
 * far-off junk levels are kept as sent, and `askTotalAmount`/`bidTotalAmount` are ignored because
 * they are no reliable checksum. Any level that is not a pair of non-negative decimals rejects the
 * whole body: a book with a level left out would be silently wrong.
 *
 * @param receivedAt Unix milliseconds when the body arrived; the snapshot carries no time of its own.
 */
export function decodeDepth(body: ExactJson, receivedAt: number): BookMessage {
  const problems = new FieldProblems();
  const fields = problems.read(() => JsonFields.of(body, ''));
  if (!fields) throw new MalformedBodyError('depth', problems.messages);
  const instrument = problems.read(() => fields.string('instrument').toLowerCase());
  const version = problems.read(() => fields.integer('version', 0, Number.MAX_SAFE_INTEGER));
  const bids = problems.read(() => readPriceLevels(fields, 'bids', 'bid', problems));
  const asks = problems.read(() => readPriceLevels(fields, 'asks', 'ask', problems));
  problems.throwIfAny('depth');
  return {
    instrument: instrument!,
    version: version!,
    snapshot: true,
    updates: [...bids!, ...asks!],
    time: receivedAt,
  };
}
