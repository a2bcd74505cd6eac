/** Whether the page hears from the gateway right now. */
export type FeedState = 'connecting' | 'live' | 'reconnecting';

/**
 * Follows a server-sent feed of whole snapshots. EventSource reconnects by itself, after a lost
 * connection and after the gateway restarted (the feed asks for a retry after a second), so the
 * page needs no refresh; each reconnection brings a whole snapshot at once.
 */
export function followFeed<T>(
  url: string,
  onSnapshot: (snapshot: T) => void,
  onState: (state: FeedState) => void,
): void {
  const source = new EventSource(url);
  onState('connecting');
  source.onopen = () => onState('live');
  source.onerror = () => onState('reconnecting');
  source.onmessage = (event: MessageEvent<string>) => {
    onState('live');
    onSnapshot(JSON.parse(event.data) as T);
  };
}

/** A small badge that says whether the page is live. */
export function feedBadge(element: HTMLElement, state: FeedState): void {
  element.textContent = state === 'live' ? 'live' : state === 'connecting' ? 'connecting…' : 'reconnecting…';
  element.className = `badge feed-${state}`;
}
