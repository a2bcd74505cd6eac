import { decodeFrame, IncomingFrame } from '../gateway-frame';
import { FrameMeaning, SpecFixture } from '../../testing/spec-fixtures';

/** The fixture's frame as the gateway reads it; a frame the gateway cannot read fails the test. */
export function fixtureFrame(fixture: SpecFixture<FrameMeaning<unknown>>): IncomingFrame {
  const decoded = decodeFrame(fixture.wire);
  if (!decoded.ok) throw new Error(`${fixture.message}: ${decoded.reason}`);
  return decoded.frame;
}

/** The envelope of a decoded frame in the form the fixtures write it. */
export function envelopeOf(frame: IncomingFrame): { m: string; i: string; n: string } {
  return { m: String(frame.type), i: String(frame.sequence), n: frame.name };
}

/** The envelope a fixture means. */
export function expectedEnvelope({ means: { m, i, n } }: SpecFixture<FrameMeaning<unknown>>): {
  m: string;
  i: string;
  n: string;
} {
  return { m, i, n };
}
