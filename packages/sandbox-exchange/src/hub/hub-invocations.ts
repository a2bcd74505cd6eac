import { Logger } from '@nestjs/common';
import { HubBindingError, HubMethodError, HubMethods } from './hub-method';
import {
  CancelInvocationMessage,
  completionFrame,
  InvocationMessage,
  StreamInvocationMessage,
  streamItemFrame,
} from './hub-protocol';

/**
 * The invocations of one connection: starts the streams the client asks for, stops them, and
 * answers calls it cannot serve with the errors the ASP.NET Core hub dispatcher sends.
 */
export class HubInvocations {
  private readonly logger = new Logger(HubInvocations.name);
  private readonly streams = new Map<string, () => void>();

  constructor(
    private readonly methods: HubMethods,
    private readonly send: (frame: string) => void,
  ) {}

  invoke(message: InvocationMessage): void {
    const { invocationId, target } = message;
    // A call without an invocation id expects no reply, not even an error.
    if (invocationId === undefined) return;
    const error = this.methods.has(target.toLowerCase())
      ? `The client attempted to invoke the streaming '${target}' method with a non-streaming invocation.`
      : `Unknown hub method '${target}'`;
    this.send(completionFrame(invocationId, error));
  }

  stream(message: StreamInvocationMessage): void {
    const { invocationId, target } = message;
    const method = this.methods.get(target.toLowerCase());
    if (!method) {
      this.send(completionFrame(invocationId, `Unknown hub method '${target}'`));
      return;
    }
    if (this.streams.has(invocationId)) {
      this.send(completionFrame(invocationId, `Invocation ID '${invocationId}' is already in use.`));
      return;
    }
    try {
      const stop = method(message.arguments, {
        next: (item) => this.send(streamItemFrame(invocationId, item)),
      });
      this.streams.set(invocationId, stop);
    } catch (error) {
      this.send(completionFrame(invocationId, this.describeFailure(target, error)));
    }
  }

  cancel(message: CancelInvocationMessage): void {
    const stop = this.streams.get(message.invocationId);
    if (!stop) return;
    this.streams.delete(message.invocationId);
    stop();
    this.send(completionFrame(message.invocationId));
  }

  /** Stops every stream without telling the client (the connection is gone). */
  stopAll(): void {
    const stops = [...this.streams.values()];
    this.streams.clear();
    for (const stop of stops) stop();
  }

  private describeFailure(target: string, error: unknown): string {
    if (error instanceof HubBindingError) {
      return `Failed to invoke '${target}' due to an error on the server. InvalidDataException: ${error.message}`;
    }
    const failed = `An unexpected error occurred invoking '${target}' on the server.`;
    if (error instanceof HubMethodError) return `${failed} HubException: ${error.message}`;
    this.logger.error(`${target} failed: ${(error as Error).stack ?? String(error)}`);
    return failed;
  }
}
