import { HttpException } from '@nestjs/common';
import { jsonObject, numberField, rejectUnknownFields } from './request-body';

function problem(action: () => unknown): { status: number; messages: string[] } {
  try {
    action();
  } catch (error) {
    if (!(error instanceof HttpException)) throw error;
    const body = error.getResponse() as { errors: { code: string; message: string }[] };
    expect(body.errors.every((entry) => entry.code === 'bad_request')).toBe(true);
    return { status: error.getStatus(), messages: body.errors.map((entry) => entry.message) };
  }
  throw new Error('expected a 400');
}

describe('jsonObject', () => {
  it('accepts an object', () => {
    expect(jsonObject({ a: 1 })).toEqual({ a: 1 });
  });

  it.each([
    [undefined, 'nothing'],
    [null, 'null'],
    [[1], 'an array'],
    ['text', '"text"'],
    [3, '3'],
  ])('answers 400 for %p', (body, got) => {
    expect(problem(() => jsonObject(body))).toEqual({
      status: 400,
      messages: [`body: must be a JSON object, got ${got}`],
    });
  });
});

describe('rejectUnknownFields', () => {
  it('names every unknown field', () => {
    const { messages } = problem(() => rejectUnknownFields({ count: 1, cuont: 2, x: 3 }, ['count']));
    expect(messages).toEqual(['cuont: unknown field; expected count', 'x: unknown field; expected count']);
  });

  it('accepts known fields', () => {
    expect(() => rejectUnknownFields({ count: 1 }, ['count'])).not.toThrow();
  });
});

describe('numberField', () => {
  const rule = { min: 0, max: 10 };

  it('returns a number within the range, bounds included', () => {
    expect(numberField({ n: 0 }, 'n', rule)).toBe(0);
    expect(numberField({ n: 10 }, 'n', rule)).toBe(10);
    expect(numberField({ n: 2.5 }, 'n', rule)).toBe(2.5);
  });

  it.each([{ n: -1 }, { n: 11 }, { n: '5' }, { n: null }, {}, { n: Number.POSITIVE_INFINITY }, { n: NaN }])(
    'answers 400 for %p',
    (body) => {
      expect(problem(() => numberField(body, 'n', rule)).messages[0]).toMatch(
        /^n: must be a number from 0 to 10/,
      );
    },
  );

  it('requires a whole number when asked to', () => {
    expect(numberField({ n: 3 }, 'n', { ...rule, integer: true })).toBe(3);
    expect(problem(() => numberField({ n: 2.5 }, 'n', { ...rule, integer: true })).messages).toEqual([
      'n: must be an integer from 0 to 10, got 2.5',
    ]);
  });
});
