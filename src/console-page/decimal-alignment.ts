import { h } from './dom';

/** As wide as a digit of a font's tabular figures. */
const FIGURE_SPACE = '\u2007';
/** As wide as the decimal point. */
const PUNCTUATION_SPACE = '\u2008';

/** The digits after the point of a decimal's text: 0 without a point (an integer, a dash). */
export function fractionDigits(text: string): number {
  const point = text.indexOf('.');
  return point < 0 ? 0 : text.length - point - 1;
}

/** The most fraction digits among a column's texts: the width its points line up on. */
export function widestFraction(texts: readonly string[]): number {
  return texts.reduce((widest, text) => Math.max(widest, fractionDigits(text)), 0);
}

/**
 * The blank that follows `text` in a right-aligned column whose texts have up to `width` fraction
 * digits, so that every point stands at the same place: a figure space per missing digit, and a
 * punctuation space where a text has no point.
 */
export function alignmentPadding(text: string, width: number): string {
  if (width === 0) return '';
  const digits = fractionDigits(text);
  return (text.includes('.') ? '' : PUNCTUATION_SPACE) + FIGURE_SPACE.repeat(Math.max(0, width - digits));
}

/**
 * `text` exactly, padded for its column by a style sheet's `::after` from `data-pad`: the blank is
 * drawn but is no part of the text, so reading or copying the cell gives the API's string.
 */
export function alignedDecimal(text: string, width: number): HTMLElement {
  return h('span', { class: 'aligned', 'data-pad': alignmentPadding(text, width) || undefined }, text);
}
