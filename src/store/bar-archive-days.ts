import { HourBlock } from './bar-archive';

export const HOUR_MS = 3_600_000;
export const DAY_MS = 86_400_000;

/** Options both bar archives share. */
export interface BarArchiveOptions {
  /** How long a UTC day's bars are kept after the day ends (the chart retention), milliseconds. */
  readonly retentionMs: number;
}

export function utcDayStart(time: number): number {
  return time - (((time % DAY_MS) + DAY_MS) % DAY_MS);
}

/** When the archive drops the bars of the day starting at `dayStart`: the retention after the day ends. */
export function barDayExpiry(dayStart: number, retentionMs: number): number {
  return dayStart + DAY_MS + retentionMs;
}

/** The UTC days that hold the hours `from <= hourStart < to`, oldest first. */
export function daysCovering(from: number, to: number): number[] {
  const days: number[] = [];
  for (let day = utcDayStart(from); day < to; day += DAY_MS) days.push(day);
  return days;
}

/** `blocks` grouped by UTC day, the days in the order they first appear, each day's blocks in their order. */
export function blocksByDay(blocks: readonly HourBlock[]): Map<number, HourBlock[]> {
  const days = new Map<number, HourBlock[]>();
  for (const block of blocks) {
    const day = utcDayStart(block.hourStart);
    const list = days.get(day);
    if (list) list.push(block);
    else days.set(day, [block]);
  }
  return days;
}
