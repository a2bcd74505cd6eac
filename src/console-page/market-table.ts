import { alignedDecimal, widestFraction } from './decimal-alignment';
import { fill, h } from './dom';
import { age, decimal, usdEstimate } from './formats';
import { orderRows, SortKey } from './table-order';
import { ConsoleMarketRow } from './wire-types';

interface Column {
  readonly field: keyof ConsoleMarketRow;
  readonly title: string;
  readonly cell: (row: ConsoleMarketRow) => Node | string;
  /** Right-aligned figures. */
  readonly numeric?: boolean;
  /** Decimals of the API, of different scales: lined up on the point. */
  readonly aligned?: boolean;
}

const COLUMNS: readonly Column[] = [
  {
    field: 'market',
    title: 'Market',
    cell: (row) => h('a', { href: `/console/market/${encodeURIComponent(row.instrument)}` }, row.market),
  },
  {
    field: 'syncState',
    title: 'State',
    cell: (row) => h('span', { class: `state state-${slug(row.syncState)}` }, row.syncState),
  },
  {
    field: 'bookVersion',
    title: 'Book version',
    cell: (row) => String(row.bookVersion ?? '—'),
    numeric: true,
  },
  { field: 'dataAgeMs', title: 'Data age', cell: (row) => age(row.dataAgeMs), numeric: true },
  { field: 'lastTradeAgeMs', title: 'Last trade', cell: (row) => age(row.lastTradeAgeMs), numeric: true },
  {
    field: 'lastPrice',
    title: 'Last price',
    cell: (row) => decimal(row.lastPrice),
    numeric: true,
    aligned: true,
  },
  { field: 'spreadPercent', title: 'Spread %', cell: (row) => decimal(row.spreadPercent), numeric: true },
  {
    field: 'depthMinus2PercentUsd',
    title: '−2 % depth',
    cell: (row) => usdEstimate(row.depthMinus2PercentUsd),
    numeric: true,
  },
  {
    field: 'depthPlus2PercentUsd',
    title: '+2 % depth',
    cell: (row) => usdEstimate(row.depthPlus2PercentUsd),
    numeric: true,
  },
  {
    field: 'quoteVolume24hUsd',
    title: '24 h volume',
    cell: (row) => usdEstimate(row.quoteVolume24hUsd),
    numeric: true,
  },
  { field: 'trades24h', title: 'Trades 24 h', cell: (row) => String(row.trades24h), numeric: true },
  {
    field: 'flags',
    title: 'Flags',
    cell: (row) => h('span', {}, ...row.flags.map((flag) => h('span', { class: 'flag' }, flag))),
  },
  { field: 'owner', title: 'Ingest replica', cell: (row) => row.owner ?? '—' },
];

function slug(text: string): string {
  return text.toLowerCase().replace(/[^a-z]+/g, '-');
}

/** The console's market table: sortable by any column (click its title), filtered by a text box. */
export class MarketTable {
  readonly element: HTMLElement;
  private readonly body = h('tbody');
  private readonly head = h('tr');
  private readonly filter = h('input', {
    type: 'search',
    placeholder: 'Filter markets, states, flags…',
    'aria-label': 'Filter',
  });
  private readonly count = h('span', { class: 'muted' });
  private sort: SortKey = { field: 'market', descending: false };
  private rows: readonly ConsoleMarketRow[] = [];

  constructor() {
    this.filter.addEventListener('input', () => this.render());
    this.element = h(
      'section',
      { class: 'panel wide' },
      h('div', { class: 'panel-head' }, h('h2', {}, 'Markets'), this.count, this.filter),
      h('div', { class: 'scroll' }, h('table', { class: 'markets' }, h('thead', {}, this.head), this.body)),
    );
    this.renderHead();
  }

  show(rows: readonly ConsoleMarketRow[]): void {
    this.rows = rows;
    this.render();
  }

  private renderHead(): void {
    fill(
      this.head,
      ...COLUMNS.map((column) => {
        const sorted = this.sort.field === column.field;
        const th = h(
          'th',
          {
            class: column.numeric ? 'num' : undefined,
            'aria-sort': sorted ? (this.sort.descending ? 'descending' : 'ascending') : undefined,
          },
          column.title,
          sorted ? (this.sort.descending ? ' ▾' : ' ▴') : '',
        );
        th.addEventListener('click', () => {
          this.sort = { field: column.field, descending: sorted ? !this.sort.descending : false };
          this.renderHead();
          this.render();
        });
        return th;
      }),
    );
  }

  private render(): void {
    const shown = orderRows(this.rows, this.filter.value, this.sort);
    this.count.textContent = `${shown.length} of ${this.rows.length}`;
    const fractionWidths = COLUMNS.map((column) =>
      column.aligned ? widestFraction(shown.map((row) => String(column.cell(row)))) : 0,
    );
    fill(
      this.body,
      ...shown.map((row) =>
        h(
          'tr',
          { 'data-market': row.market, class: row.syncState === 'live' ? undefined : 'attention' },
          ...COLUMNS.map((column, index) => {
            const content = column.cell(row);
            return h(
              'td',
              { 'data-field': column.field, class: column.numeric ? 'num' : undefined },
              column.aligned && typeof content === 'string'
                ? alignedDecimal(content, fractionWidths[index])
                : content,
            );
          }),
        ),
      ),
    );
  }
}
