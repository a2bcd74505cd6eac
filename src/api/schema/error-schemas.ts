import { Static, Type } from '@sinclair/typebox';

/** The exchange's error body, which every error of the HTTP API carries. */
export const ErrorBody = Type.Object(
  {
    errors: Type.Array(
      Type.Object(
        {
          code: Type.String({
            description: 'stable, machine-readable reason',
            examples: ['unknown_instrument'],
          }),
          message: Type.String({
            description: 'for people; may change',
            examples: ['unknown instrument "abc_xyz"'],
          }),
        },
        { additionalProperties: false },
      ),
      { minItems: 1 },
    ),
  },
  {
    description: "The exchange's error body: one entry per problem, never a stack trace",
    additionalProperties: false,
    examples: [{ errors: [{ code: 'unknown_instrument', message: 'unknown instrument "abc_xyz"' }] }],
  },
);

export type ErrorBodyRecord = Static<typeof ErrorBody>;
