import type { SchemaObject } from '@nestjs/swagger';

/** A JSON Schema (draft 7, which AsyncAPI's schema format extends), loosely typed. */
export type JsonSchema = { readonly [keyword: string]: unknown };

/**
 * An OpenAPI 3.0 schema as plain JSON Schema, so that the stream's document can reuse the HTTP
 * document's records: `nullable` becomes a `null` type and `example` becomes `examples`, the
 * keywords JSON Schema has for them. Only the keywords the HTTP document uses are followed.
 */
export function jsonSchemaOf(schema: SchemaObject): JsonSchema {
  const { nullable, example, properties, items, format, ...rest } = schema;
  const converted: Record<string, unknown> = { ...rest };
  // OpenAPI's integer formats (int64) are not JSON Schema formats.
  if (format !== undefined && !/^int(32|64)$/.test(format)) converted.format = format;
  if (nullable && typeof rest.type === 'string') converted.type = [rest.type, 'null'];
  if (example !== undefined) converted.examples = [example];
  if (properties)
    converted.properties = Object.fromEntries(
      Object.entries(properties).map(([name, property]) => [name, jsonSchemaOf(property as SchemaObject)]),
    );
  if (items) converted.items = jsonSchemaOf(items as SchemaObject);
  return converted;
}
