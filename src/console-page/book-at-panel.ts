import { fill, h } from './dom';
import type { BookAtAnswer } from './wire-types';

/** Levels of each side shown; the answer holds the whole book. */
const SHOWN_LEVELS = 10;

/** The market as this process's recordings say it was at a moment the operator names (`/console/book-at`). */
export function bookAtPanel(instrument: string): HTMLElement {
  const moment = h('input', {
    name: 'at',
    'aria-label': 'moment',
    placeholder: 'ISO time with zone, or Unix ms',
    value: new Date(Date.now() - 60_000).toISOString(),
  });
  const result = h('div', { class: 'book-at' });
  const form = h(
    'form',
    { class: 'panel-head recorded-moment' },
    h('h2', {}, 'Recorded moment'),
    moment,
    h('button', { type: 'submit' }, 'Show'),
  );
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    void show(moment.value.trim());
  });

  async function show(at: string): Promise<void> {
    fill(result, h('p', { class: 'muted' }, 'reading the recording…'));
    try {
      const path = `/console/book-at/${encodeURIComponent(instrument)}?at=${encodeURIComponent(at)}`;
      const response = await fetch(path, { cache: 'no-store' });
      const body = (await response.json()) as BookAtAnswer & { errors?: { message: string }[] };
      if (!response.ok)
        fill(result, h('p', { class: 'bad-text' }, body.errors?.[0]?.message ?? `HTTP ${response.status}`));
      else fill(result, ...answered(body));
    } catch (error) {
      fill(result, h('p', { class: 'bad-text' }, (error as Error).message));
    }
  }
  return h('section', { class: 'panel wide' }, form, result);
}

function answered(answer: BookAtAnswer): Node[] {
  const newest = answer.trades[0];
  const facts: [field: string, name: string, value: string][] = [
    ['at', 'At', answer.at],
    ['version', 'Book version', `${answer.book.version} (${answer.book.state})`],
    [
      'newestTrade',
      'Newest trade',
      newest ? `${newest.price} × ${newest.amount} at ${iso(newest.time)}` : '—',
    ],
    ['published', 'Figures published', answer.published?.at ?? '—'],
    [
      'gaps',
      'Feed gaps near it',
      answer.gaps.map((gap) => `${gap.feed} ${gap.from} to ${gap.to ?? 'the end'}`).join('; ') || 'none',
    ],
    ['source', 'Recorded by', `${answer.process}, ${answer.file}`],
  ];
  const rows = Array.from({ length: SHOWN_LEVELS }, (_, index) => {
    const bid = answer.book.bids[index];
    const ask = answer.book.asks[index];
    if (!bid && !ask) return undefined;
    return h(
      'tr',
      {},
      h('td', { class: 'num' }, bid?.[1] ?? ''),
      h('td', { class: 'num ok-text' }, bid?.[0] ?? ''),
      h('td', { class: 'num bad-text' }, ask?.[0] ?? ''),
      h('td', { class: 'num' }, ask?.[1] ?? ''),
    );
  });
  return [
    h(
      'dl',
      { class: 'figures' },
      ...facts.flatMap(([field, name, value]) => [
        h('dt', {}, name),
        h('dd', { 'data-field': field }, value),
      ]),
    ),
    h(
      'table',
      { class: 'book-at-levels' },
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          h('th', { class: 'num' }, 'Bid amount'),
          h('th', { class: 'num' }, 'Bid'),
          h('th', { class: 'num' }, 'Ask'),
          h('th', { class: 'num' }, 'Ask amount'),
        ),
      ),
      h('tbody', {}, ...rows),
    ),
    ...answer.problems.map((problem) => h('p', { class: 'muted' }, problem)),
  ];
}

function iso(time: number): string {
  return new Date(time).toISOString();
}
