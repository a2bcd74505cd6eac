import { ChangeNotice, InstrumentHead } from './state-store';

export function instrumentNotice(head: InstrumentHead): ChangeNotice {
  return {
    kind: 'instrument',
    instrument: head.instrument,
    bookVersion: head.bookVersion,
    tradesRevision: head.tradesRevision,
  };
}

export function catalogNotice(refreshedAt: number): ChangeNotice {
  return { kind: 'catalog', refreshedAt };
}

/** The notice a change message carries, or `undefined` when the message is not one. */
export function parseChangeNotice(text: string): ChangeNotice | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  const notice = value as Record<string, unknown>;
  if (
    notice.kind === 'instrument' &&
    typeof notice.instrument === 'string' &&
    typeof notice.bookVersion === 'number' &&
    typeof notice.tradesRevision === 'number'
  ) {
    return {
      kind: 'instrument',
      instrument: notice.instrument,
      bookVersion: notice.bookVersion,
      tradesRevision: notice.tradesRevision,
    };
  }
  if (notice.kind === 'catalog' && typeof notice.refreshedAt === 'number') {
    return { kind: 'catalog', refreshedAt: notice.refreshedAt };
  }
  return undefined;
}
