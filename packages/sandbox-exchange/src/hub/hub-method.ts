/** Where a stream method writes its items; each item is already JSON. */
export interface StreamSink {
  next(itemJson: string): void;
}

/**
 * A server-to-client stream method of a hub. It sends its first items synchronously if it has
 * them, and returns the function that stops the stream.
 */
export type StreamMethod = (args: readonly unknown[], sink: StreamSink) => () => void;

/** The methods of a hub, keyed by lower-case name: hub method names are case-insensitive. */
export type HubMethods = ReadonlyMap<string, StreamMethod>;

/** A failure the client is told about, as a hub method throwing `HubException` reports it. */
export class HubMethodError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'HubMethodError';
  }
}

/** Arguments that do not fit the method's parameters. */
export class HubBindingError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'HubBindingError';
  }
}

/** Binds the arguments of a method whose parameters are all strings. */
export function stringArguments(args: readonly unknown[], count: number): string[] {
  if (args.length !== count) {
    throw new HubBindingError(`Invocation provides ${args.length} argument(s) but target expects ${count}.`);
  }
  if (!args.every((arg) => typeof arg === 'string')) {
    throw new HubBindingError(
      'Error binding arguments. Make sure that the types of the provided values match the types of the hub method being invoked.',
    );
  }
  return args as string[];
}
