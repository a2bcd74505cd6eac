import { createHash } from 'node:crypto';
import { Cluster } from 'ioredis';
import { RedisClient } from './redis-client';

export interface ScriptCall {
  readonly keys: readonly string[];
  readonly args: readonly string[];
  /** Calls with the same group touch keys of one Cluster slot (e.g. the instrument of a hash tag). */
  readonly group: string;
}

type Reply = [error: Error | null, value: unknown];

/**
 * A Lua script run by its SHA1 (EVALSHA). When the server does not know the script (first use,
 * restart, SCRIPT FLUSH) the affected calls are sent again with the full source (EVAL), which
 * also caches it for the next time.
 */
export class LuaScript {
  readonly sha: string;

  constructor(readonly source: string) {
    this.sha = createHash('sha1').update(source).digest('hex');
  }

  /**
   * Runs the calls in order, each atomically, pipelined: one round trip for all of them on a
   * standalone Redis; on a Cluster one pipeline per group, because a pipeline may not span slots.
   * Rejects with the first error; the replies are in the order of the calls.
   */
  async runAll(client: RedisClient, calls: readonly ScriptCall[]): Promise<unknown[]> {
    if (calls.length === 0) return [];
    const groups = client instanceof Cluster ? groupIndexes(calls) : [calls.map((_, index) => index)];
    const replies: Reply[] = new Array<Reply>(calls.length);
    await Promise.all(
      groups.map(async (indexes) => {
        const groupReplies = await this.runPipelined(
          client,
          indexes.map((index) => calls[index]),
        );
        indexes.forEach((index, position) => (replies[index] = groupReplies[position]));
      }),
    );
    const failed = replies.find(([error]) => error !== null);
    if (failed) throw failed[0];
    return replies.map(([, value]) => value);
  }

  private async runPipelined(client: RedisClient, calls: readonly ScriptCall[]): Promise<Reply[]> {
    const replies = await exec(client, calls, (pipeline, call) =>
      pipeline.evalsha(this.sha, call.keys.length, [...call.keys, ...call.args]),
    );
    const unknown = replies.flatMap(([error], index) => (isNoScript(error) ? [index] : []));
    if (unknown.length > 0) {
      // NOSCRIPT means the call did nothing, so sending it again cannot apply it twice.
      const retried = await exec(
        client,
        unknown.map((index) => calls[index]),
        (pipeline, call) => pipeline.eval(this.source, call.keys.length, [...call.keys, ...call.args]),
      );
      unknown.forEach((index, position) => (replies[index] = retried[position]));
    }
    return replies;
  }
}

type Pipeline = ReturnType<RedisClient['pipeline']>;

async function exec(
  client: RedisClient,
  calls: readonly ScriptCall[],
  add: (pipeline: Pipeline, call: ScriptCall) => void,
): Promise<Reply[]> {
  const pipeline = client.pipeline();
  for (const call of calls) add(pipeline, call);
  const replies = await pipeline.exec();
  if (!replies) throw new Error('pipeline returned no replies');
  return replies;
}

function groupIndexes(calls: readonly ScriptCall[]): number[][] {
  const groups = new Map<string, number[]>();
  calls.forEach((call, index) => {
    const group = groups.get(call.group);
    if (group) group.push(index);
    else groups.set(call.group, [index]);
  });
  return [...groups.values()];
}

function isNoScript(error: Error | null): boolean {
  return error !== null && error.message.startsWith('NOSCRIPT');
}
