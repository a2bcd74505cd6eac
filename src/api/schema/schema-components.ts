import type { TSchema } from '@sinclair/typebox';

export type JsonSchema = { readonly [keyword: string]: unknown };

/**
 * Named schemas as a document's components: within each, a schema that is itself one of the named
 * ones becomes a `$ref` to it (`prefix` + name), so that a shape is written out once. The schemas
 * are plain JSON once TypeBox's symbol keys are left out, which `JSON.stringify` does.
 */
export function schemaComponents(
  named: Readonly<Record<string, TSchema>>,
  prefix: string,
): Record<string, JsonSchema> {
  const names = new Map<object, string>(Object.entries(named).map(([name, schema]) => [schema, name]));
  const inline = (value: unknown, root: boolean): unknown => {
    if (Array.isArray(value)) return value.map((item) => inline(item, false));
    if (typeof value !== 'object' || value === null) return value;
    const name = root ? undefined : names.get(value);
    if (name !== undefined) return { $ref: `${prefix}${name}` };
    return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, inline(inner, false)]));
  };
  return Object.fromEntries(
    Object.entries(named).map(([name, schema]) => [
      name,
      JSON.parse(JSON.stringify(inline(schema, true))) as JsonSchema,
    ]),
  );
}
