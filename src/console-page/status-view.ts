import { fill, h } from './dom';
import { age, clock } from './formats';
import { feedBadge, followFeed } from './live-feed';
import { sandboxBanner } from './sandbox-banner';
import { StatusSnapshot } from './wire-types';

/** The public status page: each market live or stale, how old its data is, and recent incidents. */
export function statusView(root: HTMLElement): void {
  const badge = h('span', { class: 'badge' });
  const overall = h('p', { class: 'overall' });
  const markets = h('tbody');
  const incidents = h('ol', { class: 'events' });
  const sandbox = sandboxBanner();
  fill(
    root,
    sandbox.element,
    h('header', {}, h('h1', {}, 'Market data status'), badge),
    overall,
    h(
      'section',
      { class: 'panel wide' },
      h('h2', {}, 'Markets'),
      h(
        'table',
        { class: 'status' },
        h(
          'thead',
          {},
          h('tr', {}, h('th', {}, 'Market'), h('th', {}, 'State'), h('th', { class: 'num' }, 'Data age')),
        ),
        markets,
      ),
    ),
    h('section', { class: 'panel wide' }, h('h2', {}, 'Recent incidents'), incidents),
  );
  followFeed<StatusSnapshot>(
    '/status/feed',
    (snapshot) => {
      sandbox.show(snapshot.sandbox);
      const stale = snapshot.markets.filter((market) => market.state !== 'live').length;
      overall.textContent =
        stale === 0 ? 'All markets live.' : `${stale} of ${snapshot.markets.length} markets with stale data.`;
      overall.className = `overall ${stale === 0 ? 'ok' : 'bad'}`;
      fill(
        markets,
        ...snapshot.markets.map((market) =>
          h(
            'tr',
            { 'data-market': market.market },
            h('td', {}, market.market),
            h('td', { 'data-field': 'state', class: `state state-${market.state}` }, market.state),
            h('td', { 'data-field': 'dataAgeMs', class: 'num' }, age(market.dataAgeMs)),
          ),
        ),
      );
      fill(
        incidents,
        ...(snapshot.incidents.length === 0
          ? [h('li', { class: 'muted' }, 'No incidents recently.')]
          : snapshot.incidents.map((incident) =>
              h(
                'li',
                {},
                h('time', {}, clock(incident.at)),
                ' ',
                incident.market ? `${incident.market}: ` : '',
                incident.message,
              ),
            )),
      );
    },
    (state) => feedBadge(badge, state),
  );
}
