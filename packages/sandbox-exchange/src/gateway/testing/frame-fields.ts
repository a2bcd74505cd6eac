import { ExactJson, parseExactJson } from '../../wire/exact-json';

export type Fields = { readonly [key: string]: ExactJson };

/** A frame's envelope `{m, i, n}` and its `o` parsed, every number as its exact text. */
export function frameFields<Payload = ExactJson>(
  text: string,
): { envelope: Record<string, unknown>; payload: Payload } {
  const { o, ...envelope } = JSON.parse(text) as Record<string, unknown>;
  return { envelope, payload: parseExactJson(o as string) as Payload };
}

/** The record's fields in their order, but for `left` ones: equal lists have equal names, order and text. */
export function fieldsBut(record: Fields, ...left: string[]): [string, ExactJson][] {
  return Object.entries(record).filter(([name]) => !left.includes(name));
}
