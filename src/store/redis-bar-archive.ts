import { decodeHourBlock, encodeHourBlock } from '../market/bars/hour-block-codec';
import { BACKFILL_FIELDS, BackfillState, BarArchive, HourBlock } from './bar-archive';
import { BarArchiveOptions, barDayExpiry, blocksByDay, daysCovering, HOUR_MS } from './bar-archive-days';
import { StoreKeys } from './keys';
import { LuaScript } from './lua-script';
import { RedisClient } from './redis-client';
import { closeConnection } from './redis-connection';

/**
 * Stores one day's blocks: KEYS[1] the day's hash, ARGV[1] when the day expires (Unix ms), then
 * hour and block pairs. A block replaces the hour's block unless that one is trade-built (the
 * source is the block text's second word) and this one is not. Replies with the blocks stored.
 */
export const BAR_WRITE_SCRIPT = new LuaScript(`
local stored = 0
for i = 2, #ARGV, 2 do
  local block = ARGV[i + 1]
  local keep = false
  if not string.find(block, '^[^ ]+ t ') then
    local current = redis.call('HGET', KEYS[1], ARGV[i])
    keep = current and string.find(current, '^[^ ]+ t ') ~= nil
  end
  if not keep then
    redis.call('HSET', KEYS[1], ARGV[i], block)
    stored = stored + 1
  end
end
if stored > 0 then redis.call('PEXPIREAT', KEYS[1], ARGV[1]) end
return stored
`);

export interface RedisBarArchiveOptions extends BarArchiveOptions {
  /** Prefix of every key; `mdg` by default. */
  readonly prefix?: string;
  /** Whether `close()` also closes the client; false by default. */
  readonly closeClient?: boolean;
}

/**
 * The bar archive in Redis (standalone or Cluster), laid out as `keys.ts` documents: one hash per
 * market-day, field = hour of the day, value = the encoded block, the key expiring the retention
 * after the day ends, so that Redis drops old days itself. Every key of a market shares its hash tag.
 */
export class RedisBarArchive implements BarArchive {
  readonly keys: StoreKeys;
  private readonly retentionMs: number;
  private readonly closeClient: boolean;

  constructor(
    private readonly client: RedisClient,
    options: RedisBarArchiveOptions,
  ) {
    this.keys = new StoreKeys(options.prefix);
    this.retentionMs = options.retentionMs;
    this.closeClient = options.closeClient ?? false;
  }

  async readHours(instrument: string, from: number, to: number): Promise<HourBlock[]> {
    const keys = this.keys.bars(instrument);
    const days = daysCovering(from, to);
    if (days.length === 0) return [];
    const pipeline = this.client.pipeline();
    for (const day of days) pipeline.hgetall(keys.day(day));
    const replies = (await pipeline.exec()) ?? [];
    const blocks: HourBlock[] = [];
    days.forEach((day, index) => {
      const [error, fields] = replies[index] ?? [new Error('pipeline returned no reply')];
      if (error) throw error;
      for (const [hour, text] of Object.entries(fields as Record<string, string>)) {
        const hourStart = day + Number(hour) * HOUR_MS;
        if (hourStart < from || hourStart >= to) continue;
        const block = decodeStored(text, instrument, hourStart);
        blocks.push(block);
      }
    });
    return blocks.sort((a, b) => a.hourStart - b.hourStart);
  }

  async writeHours(instrument: string, blocks: readonly HourBlock[]): Promise<void> {
    const keys = this.keys.bars(instrument);
    const calls = [...blocksByDay(blocks)].map(([day, dayBlocks]) => ({
      keys: [keys.day(day)],
      args: [
        String(barDayExpiry(day, this.retentionMs)),
        ...dayBlocks.flatMap((block) => [String((block.hourStart - day) / HOUR_MS), encodeHourBlock(block)]),
      ],
      group: instrument,
    }));
    await BAR_WRITE_SCRIPT.runAll(this.client, calls);
  }

  async readBackfill(instrument: string): Promise<BackfillState> {
    const fields = await this.client.hgetall(this.keys.bars(instrument).backfill);
    const state: { -readonly [K in keyof BackfillState]: BackfillState[K] } = {};
    for (const field of BACKFILL_FIELDS)
      if (fields[field] !== undefined) state[field] = storedTime(fields[field], instrument);
    return state;
  }

  async writeBackfill(instrument: string, state: BackfillState): Promise<void> {
    const fields: Record<string, string> = {};
    for (const field of BACKFILL_FIELDS) if (state[field] !== undefined) fields[field] = String(state[field]);
    if (Object.keys(fields).length === 0) return;
    await this.client.hset(this.keys.bars(instrument).backfill, fields);
  }

  async close(): Promise<void> {
    if (this.closeClient) await closeConnection(this.client);
  }
}

function decodeStored(text: string, instrument: string, hourStart: number): HourBlock {
  let block: HourBlock;
  try {
    block = decodeHourBlock(text);
  } catch (error) {
    throw new Error(
      `bar archive of ${instrument}, hour ${new Date(hourStart).toISOString()}: ${(error as Error).message}`,
    );
  }
  if (block.hourStart !== hourStart) {
    throw new Error(
      `bar archive of ${instrument}: the block stored for ${new Date(hourStart).toISOString()} holds the hour ${new Date(block.hourStart).toISOString()}`,
    );
  }
  return block;
}

function storedTime(text: string, instrument: string): number {
  const time = Number(text);
  if (!Number.isSafeInteger(time))
    throw new Error(`bar backfill state of ${instrument}: malformed time ${JSON.stringify(text)}`);
  return time;
}
