/** Whether the page hears from the gateway right now. */
export type FeedState = 'connecting' | 'live' | 'reconnecting';

/** A feed the browser gave up on (an error status, from a proxy during a restart) is opened again after this. */
const REOPEN_MS = 2_000;

/**
 * Follows a server-sent feed of whole snapshots. EventSource reconnects by itself after a lost
 * connection and after the gateway restarted (the feed asks for a retry after a second); a response
 * that is not a stream (a proxy's 502 while no replica answers) makes it give up, so the feed is
 * then opened anew. Each connection brings a whole snapshot at once: the page needs no refresh.
 */
export function followFeed<T>(
  url: string,
  onSnapshot: (snapshot: T) => void,
  onState: (state: FeedState) => void,
): void {
  onState('connecting');
  const open = () => {
    const source = new EventSource(url);
    source.onopen = () => onState('live');
    source.onerror = () => {
      onState('reconnecting');
      if (source.readyState === EventSource.CLOSED) setTimeout(open, REOPEN_MS);
    };
    source.onmessage = (event: MessageEvent<string>) => {
      onState('live');
      onSnapshot(JSON.parse(event.data) as T);
    };
  };
  open();
}

/** A small badge that says whether the page is live. */
export function feedBadge(element: HTMLElement, state: FeedState): void {
  element.textContent = state === 'live' ? 'live' : state === 'connecting' ? 'connecting…' : 'reconnecting…';
  element.className = `badge feed-${state}`;
}
