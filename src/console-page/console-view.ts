import { fill, h } from './dom';
import { freshnessChart } from './freshness-chart';
import { age, clock } from './formats';
import { feedBadge, followFeed } from './live-feed';
import { MarketTable } from './market-table';
import { sandboxBanner } from './sandbox-banner';
import { ConsoleSnapshot } from './wire-types';

/** The operator console: every market, the connections and replicas, freshness and the last events. */
export function consoleView(root: HTMLElement): void {
  const badge = h('span', { class: 'badge' });
  const store = h('span', { class: 'badge' });
  const summary = h('span', { class: 'muted' });
  const table = new MarketTable();
  const upstream = h('div');
  const replicas = h('div');
  const events = h('ol', { class: 'events' });
  const chart = h('div', { class: 'chart' });
  const drawFreshness = freshnessChart(chart);
  const sandbox = sandboxBanner();
  fill(
    root,
    sandbox.element,
    h(
      'header',
      {},
      h('h1', {}, 'Gateway console'),
      badge,
      store,
      summary,
      h('a', { href: '/status' }, 'public status'),
    ),
    table.element,
    h(
      'div',
      { class: 'grid' },
      h('section', { class: 'panel' }, h('h2', {}, 'Upstream connections'), upstream),
      h('section', { class: 'panel' }, h('h2', {}, 'Replicas'), replicas),
      h('section', { class: 'panel' }, h('h2', {}, 'Data age and freshness, last hour'), chart),
      h('section', { class: 'panel' }, h('h2', {}, 'Last events'), events),
    ),
  );
  followFeed<ConsoleSnapshot>(
    '/console/feed',
    (snapshot) => {
      sandbox.show(snapshot.sandbox);
      const live = snapshot.markets.filter((row) => row.syncState === 'live').length;
      summary.textContent = `${live} of ${snapshot.markets.length} books live`;
      store.textContent = `${snapshot.store.kind} store ${snapshot.store.reachable ? 'reachable' : 'unreachable'}`;
      store.className = `badge ${snapshot.store.reachable ? 'ok' : 'bad'}`;
      table.show(snapshot.markets);
      showUpstream(upstream, snapshot);
      showReplicas(replicas, snapshot);
      fill(
        events,
        ...(snapshot.events.length === 0
          ? [h('li', { class: 'muted' }, 'nothing since this replica started')]
          : snapshot.events
              .slice(0, 100)
              .map((event) =>
                h(
                  'li',
                  { 'data-kind': event.kind },
                  h('time', {}, clock(event.at)),
                  ' ',
                  h('span', { class: `kind kind-${event.kind}` }, event.kind),
                  ' ',
                  event.message,
                ),
              )),
      );
      drawFreshness(snapshot.freshness);
    },
    (state) => feedBadge(badge, state),
  );
}

function showUpstream(container: HTMLElement, snapshot: ConsoleSnapshot): void {
  if (snapshot.upstream === null) {
    fill(
      container,
      h(
        'p',
        { class: 'muted' },
        'This replica does not ingest (role api): the ingest replicas report their connections at /health/ready.',
      ),
    );
    return;
  }
  fill(
    container,
    h(
      'table',
      {},
      h(
        'tbody',
        {},
        ...snapshot.upstream.map((connection) =>
          h(
            'tr',
            { 'data-connection': connection.name },
            h('th', {}, connection.name),
            h('td', { class: connection.state === 'connected' ? 'ok-text' : 'bad-text' }, connection.state),
          ),
        ),
      ),
    ),
    h('h3', {}, 'REST budget'),
    h(
      'table',
      {},
      h(
        'tbody',
        {},
        ...(snapshot.restBudget ?? []).map((family) =>
          h(
            'tr',
            { 'data-budget': family.family },
            h('th', {}, `/${family.family}/`),
            h('td', {}, `${family.counting} of ${family.limit} a second in use`),
            h('td', { class: 'muted' }, `${family.waiting} waiting`),
            h(
              'td',
              { class: 'muted' },
              family.scope === 'deployment' ? 'all replicas' : 'this replica alone',
            ),
          ),
        ),
      ),
    ),
  );
}

function showReplicas(container: HTMLElement, snapshot: ConsoleSnapshot): void {
  const { replicas } = snapshot;
  fill(
    container,
    h('h3', {}, 'Ingest'),
    replicas.ingest.length === 0
      ? h('p', { class: 'muted' }, 'no live ingest replica')
      : h(
          'table',
          {},
          h(
            'tbody',
            {},
            ...replicas.ingest.map((member) =>
              h(
                'tr',
                {},
                h('th', {}, member.id),
                h('td', {}, `${member.owns} markets`),
                h(
                  'td',
                  { class: 'muted' },
                  replicas.leased
                    ? `lease renewal due in ${age(member.expiresInMs)}`
                    : 'in-process, no leases',
                ),
              ),
            ),
          ),
        ),
    h('h3', {}, 'API'),
    h(
      'table',
      {},
      h(
        'tbody',
        {},
        ...replicas.api.map((api) =>
          h('tr', {}, h('th', {}, api.id), h('td', {}, `role ${api.role}, this page`)),
        ),
      ),
    ),
    h(
      'p',
      { class: 'muted' },
      'API replicas register nowhere; each console shows the replica that serves it.',
    ),
    replicas.error ? h('p', { class: 'bad-text' }, `leases unreadable: ${replicas.error}`) : null,
  );
}
