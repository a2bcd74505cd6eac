import fc from 'fast-check';

/**
 * Texts drawn from `texts` with one to three characters deleted, inserted or replaced, the inserted
 * ones drawn from `characters`: valid text broken the ways that reach a reader's error paths.
 */
export function withTypos(texts: fc.Arbitrary<string>, characters: readonly string[]): fc.Arbitrary<string> {
  return fc
    .tuple(
      texts,
      fc.array(
        fc.tuple(fc.constantFrom('delete', 'insert', 'replace'), fc.nat(), fc.constantFrom(...characters)),
        { minLength: 1, maxLength: 3 },
      ),
    )
    .map(([text, edits]) =>
      edits.reduce((current, [edit, at, character]) => {
        const index = current.length === 0 ? 0 : at % (current.length + 1);
        if (edit === 'insert') return current.slice(0, index) + character + current.slice(index);
        if (edit === 'delete') return current.slice(0, index) + current.slice(index + 1);
        return current.slice(0, index) + character + current.slice(index + 1);
      }, text),
    );
}
