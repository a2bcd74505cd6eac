import type { PathItemObject, TagObject } from '@nestjs/swagger';
import type { TSchema } from '@sinclair/typebox';

/** One family of endpoints in the document: its tag, paths and the wire schemas they name. */
export interface EndpointFamily {
  readonly tag: TagObject;
  readonly paths: Record<string, PathItemObject>;
  readonly schemas: Readonly<Record<string, TSchema>>;
}

export const schemaRef = (name: string) => ({ $ref: `#/components/schemas/${name}` });
