/**
 * A message of the exchange as its specification describes it: the exact text in `wire`, the values
 * it carries in `means` (numbers as decimal text, times as ISO 8601).
 */
export interface SpecFixture<Means> {
  readonly spec: string;
  readonly message: string;
  readonly request?: string;
  readonly status?: string;
  readonly wire: string;
  readonly means: Means;
}

/** A gateway frame's meaning: the envelope's numbers as text, `o` decoded. */
export interface FrameMeaning<Payload> {
  readonly m: string;
  readonly i: string;
  readonly n: string;
  readonly o: Payload;
}

/** `{ amount, price }` of the REST depth and the hub's Book items. */
export interface LevelMeaning {
  readonly amount: string;
  readonly price: string;
}

export function readSpecFixture<Means>(file: string): SpecFixture<Means>;

export function unixMs(iso: string): number;
