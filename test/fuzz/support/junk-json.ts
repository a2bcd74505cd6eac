import fc from 'fast-check';

/** JSON text written as is: numbers no JavaScript number can hold (1e400, 30 digits, -0). */
export class RawJson {
  constructor(readonly text: string) {}
}

export type JsonLike = string | number | boolean | null | RawJson | JsonLike[] | { [key: string]: JsonLike };

/** JSON text of `value`, with RawJson written verbatim. */
export function jsonText(value: JsonLike): string {
  if (value instanceof RawJson) return value.text;
  if (Array.isArray(value)) return `[${value.map(jsonText).join(',')}]`;
  if (value !== null && typeof value === 'object')
    return `{${Object.entries(value)
      .map(([key, field]) => `${JSON.stringify(key)}:${jsonText(field)}`)
      .join(',')}}`;
  return JSON.stringify(value) ?? 'null';
}

/** Numbers an exchange might send by mistake, as raw JSON number text. */
const oddNumber = fc
  .oneof(
    fc.constantFrom('1e400', '-1e400', '1e-400', '-0', '0.0000000000000000000000001', '1E+2', '-1', '-0.5'),
    fc.bigInt({ min: -(10n ** 40n), max: 10n ** 40n }).map(String),
    fc
      .tuple(fc.bigInt({ min: 0n, max: 10n ** 30n }), fc.bigInt({ min: 0n, max: 10n ** 30n }))
      .map(([whole, fraction]) => `${whole}.${fraction}`),
    fc.double({ noNaN: true, noDefaultInfinity: true }).map((n) => JSON.stringify(n)),
  )
  .map((text) => new RawJson(text));

/** Strings that look almost like decimals, integers, flags or names. */
const oddString = fc.oneof(
  fc.constantFrom(
    '',
    ' ',
    '1,5',
    ' 1',
    '1 ',
    '0x10',
    '1e5',
    '1e999999',
    'NaN',
    'Infinity',
    '-Infinity',
    '-0',
    '+1',
    '.5',
    '5.',
    '١٢٣',
    '１２',
    '1_000',
    'true',
    'false',
    'null',
    '0',
    '1',
    '\u0000',
    '\ud800',
    '__proto__',
    'constructor',
    'toString',
    'Buy',
    'btc_usdt',
  ),
  fc.string({ maxLength: 20 }),
  fc.string({ unit: 'binary', maxLength: 20 }),
  fc.string({ unit: fc.constantFrom(...'0123456789.-+eE '), maxLength: 25 }),
  fc.nat({ max: 100 }).map((n) => 'x'.repeat(n * 50)),
);

/** A value of the wrong kind, or of the right kind with an odd value. */
export const junkValue: fc.Arbitrary<JsonLike> = fc.oneof(
  { arbitrary: oddNumber, weight: 3 },
  { arbitrary: oddString, weight: 3 },
  { arbitrary: fc.constantFrom<JsonLike>(null, true, false, [], {}, [[]], { price: '1' }), weight: 2 },
  { arbitrary: fc.integer().map<JsonLike>((n) => n), weight: 1 },
  // Valid JSON nested deeper than a recursive writer's stack (JSON.stringify of it throws).
  {
    arbitrary: fc.constantFrom<JsonLike>(
      new RawJson(`${'['.repeat(20_000)}${']'.repeat(20_000)}`),
      new RawJson(`${'{"a":'.repeat(8_000)}1${'}'.repeat(8_000)}`),
    ),
    weight: 1,
  },
  { arbitrary: fc.jsonValue({ maxDepth: 2 }) as fc.Arbitrary<JsonLike>, weight: 1 },
  {
    arbitrary: fc.nat({ max: 300 }).map<JsonLike>((depth) => {
      let nested: JsonLike = [];
      for (let i = 0; i < depth; i++) nested = [nested];
      return nested;
    }),
    weight: 1,
  },
);

type Path = readonly (string | number)[];

/** Mutations reach this deep; deeper nodes are junk already. */
const MAX_PATH_DEPTH = 5;

/** Every path into `value` (the root excluded) down to MAX_PATH_DEPTH, so that a mutation can pick any node. */
function paths(value: JsonLike, prefix: Path = []): Path[] {
  if (value instanceof RawJson || value === null || typeof value !== 'object') return [];
  if (prefix.length >= MAX_PATH_DEPTH) return [];
  const keys: (string | number)[] = Array.isArray(value)
    ? value.map((_, index) => index)
    : Object.keys(value);
  return keys.flatMap((key) => {
    const path = [...prefix, key];
    return [path, ...paths((value as Record<string | number, JsonLike>)[key], path)];
  });
}

type Mutation =
  | { readonly kind: 'replace'; readonly pick: number; readonly value: JsonLike }
  | { readonly kind: 'remove'; readonly pick: number }
  | { readonly kind: 'add'; readonly pick: number; readonly key: string; readonly value: JsonLike }
  | { readonly kind: 'duplicate'; readonly pick: number };

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  {
    arbitrary: fc.record({ kind: fc.constant('replace' as const), pick: fc.nat(), value: junkValue }),
    weight: 6,
  },
  { arbitrary: fc.record({ kind: fc.constant('remove' as const), pick: fc.nat() }), weight: 2 },
  {
    arbitrary: fc.record({
      kind: fc.constant('add' as const),
      pick: fc.nat(),
      key: fc.oneof(fc.string({ maxLength: 8 }), fc.constantFrom('__proto__', 'constructor', 'type')),
      value: junkValue,
    }),
    weight: 1,
  },
  { arbitrary: fc.record({ kind: fc.constant('duplicate' as const), pick: fc.nat() }), weight: 1 },
);

function clone(value: JsonLike): JsonLike {
  if (value instanceof RawJson || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map(clone);
  const copy: { [key: string]: JsonLike } = {};
  for (const [key, field] of Object.entries(value))
    Object.defineProperty(copy, key, {
      value: clone(field),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  return copy;
}

function apply(root: JsonLike, change: Mutation): JsonLike {
  const all = paths(root);
  if (all.length === 0) return change.kind === 'replace' ? clone(change.value) : root;
  const path = all[change.pick % all.length];
  let parent = root as Record<string | number, JsonLike>;
  for (const key of path.slice(0, -1)) parent = parent[key] as Record<string | number, JsonLike>;
  const last = path[path.length - 1];
  const set = (target: Record<string | number, JsonLike>, key: string | number, value: JsonLike) =>
    Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  switch (change.kind) {
    case 'replace':
      set(parent, last, clone(change.value));
      break;
    case 'remove':
      if (Array.isArray(parent)) parent.splice(last as number, 1);
      else delete parent[last];
      break;
    case 'add': {
      const target = parent[last];
      if (
        target !== null &&
        typeof target === 'object' &&
        !Array.isArray(target) &&
        !(target instanceof RawJson)
      )
        set(target, change.key, clone(change.value));
      else set(parent, last, [target, clone(change.value)]);
      break;
    }
    case 'duplicate':
      if (Array.isArray(parent)) parent.splice(last as number, 0, clone(parent[last as number]));
      break;
  }
  return root;
}

/** `base` with one to three of its nodes replaced by junk, removed, duplicated or given odd fields. */
export function mutatedJson(base: JsonLike): fc.Arbitrary<JsonLike> {
  return fc.array(mutation, { minLength: 1, maxLength: 3 }).map((changes) => {
    let value = clone(base);
    for (const change of changes) value = apply(value, change);
    return value;
  });
}

/** Text-level damage: cut short, bytes inserted or dropped, characters doubled. */
export function damagedText(text: string): fc.Arbitrary<string> {
  return fc.oneof(
    fc.nat({ max: Math.max(0, text.length - 1) }).map((end) => text.slice(0, end)),
    fc
      .tuple(fc.nat({ max: text.length }), fc.string({ minLength: 1, maxLength: 4 }))
      .map(([at, inserted]) => text.slice(0, at) + inserted + text.slice(at)),
    fc
      .tuple(fc.nat({ max: Math.max(0, text.length - 1) }), fc.integer({ min: 1, max: 5 }))
      .map(([at, length]) => text.slice(0, at) + text.slice(at + length)),
    fc.constantFrom('', ' ', 'null', '[]', '{}', '"text"', '{"', '\ufeff' + text, text + text),
    // Nesting deep enough to overflow a recursive parser's stack.
    fc.constantFrom(
      '['.repeat(100_000),
      `${'['.repeat(50_000)}${']'.repeat(50_000)}`,
      `{"a":`.repeat(30_000),
    ),
  );
}
