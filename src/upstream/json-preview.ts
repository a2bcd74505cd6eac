/**
 * The JSON text of `value` cut to `max` characters (ending in `...` when cut), for error messages.
 * Only what is shown is written: a body of megabytes costs no more than a small one, and one nested
 * a hundred thousand levels deep (which JSON.stringify would answer with a stack overflow) is shown
 * as its first brackets. `leaf` writes values that are no plain JSON, such as exact-number objects.
 */
export function previewJson(value: unknown, max = 60, leaf?: (value: object) => string | undefined): string {
  let text = '';
  /** False once the preview is full. */
  const write = (part: string): boolean => {
    text += part.length > max ? part.slice(0, max + 1) : part;
    return text.length <= max;
  };
  const visit = (node: unknown): boolean => {
    if (typeof node === 'string') return write(JSON.stringify(node.length > max ? node.slice(0, max) : node));
    if (typeof node !== 'object' || node === null) return write(JSON.stringify(node) ?? 'null');
    const special = leaf?.(node);
    if (special !== undefined) return write(special);
    if (Array.isArray(node)) {
      if (!write('[')) return false;
      for (let index = 0; index < node.length; index++) {
        if ((index > 0 && !write(',')) || !visit(node[index])) return false;
      }
      return write(']');
    }
    if (!write('{')) return false;
    let first = true;
    for (const key in node) {
      if (!Object.hasOwn(node, key)) continue;
      if (!write(`${first ? '' : ','}${JSON.stringify(key.length > max ? key.slice(0, max) : key)}:`))
        return false;
      first = false;
      if (!visit((node as Record<string, unknown>)[key])) return false;
    }
    return write('}');
  };
  if (value === undefined) return 'nothing';
  visit(value);
  return text.length > max ? `${text.slice(0, max - 3)}...` : text;
}
