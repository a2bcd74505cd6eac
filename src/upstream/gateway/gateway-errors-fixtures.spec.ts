import { FrameMeaning, readSpecFixture } from '../testing/spec-fixtures';
import { GatewayCallError } from './gateway-errors';
import { envelopeOf, expectedEnvelope, fixtureFrame } from './testing/fixture-frame';

interface ResultMeaning {
  readonly result: boolean;
  readonly errormsg: string | null;
  readonly errorcode: string;
  readonly detail: string | null;
}

function read(file: string) {
  const fixture = readSpecFixture<FrameMeaning<ResultMeaning>>(file);
  const frame = fixtureFrame(fixture);
  expect(envelopeOf(frame)).toEqual(expectedEnvelope(fixture));
  return { frame, result: fixture.means.o };
}

describe('the generic result against the specification fixtures', () => {
  it('takes the successful unsubscribe reply for no error', () => {
    const { frame, result } = read('gateway/unsubscribe-reply.json');
    expect(result.result).toBe(true);
    expect(GatewayCallError.fromResult(frame.name, frame.payload)).toBeUndefined();
  });

  it('reads the failed reply as the call error with its code and message', () => {
    const { frame, result } = read('gateway/unsubscribe-failed.json');
    expect(GatewayCallError.fromResult(frame.name, frame.payload)).toMatchObject({
      functionName: frame.name,
      code: Number(result.errorcode),
      errorMessage: result.errormsg,
      detail: result.detail ?? undefined,
    });
  });
});
