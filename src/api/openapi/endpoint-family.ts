import type { PathItemObject, SchemaObject, TagObject } from '@nestjs/swagger';

/** One family of endpoints in the document: its tag, paths and the schemas they name. */
export interface EndpointFamily {
  readonly tag: TagObject;
  readonly paths: Record<string, PathItemObject>;
  readonly schemas: Record<string, SchemaObject>;
}

export const schemaRef = (name: string) => ({ $ref: `#/components/schemas/${name}` });
