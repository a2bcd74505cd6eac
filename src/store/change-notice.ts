import { ChangeNotice, InstrumentChange } from './state-store';

/** The notice of an instrument write, which carries what the write changed. */
export function instrumentNotice(change: InstrumentChange): ChangeNotice {
  return {
    kind: 'instrument',
    instrument: change.instrument,
    bookVersion: change.head.bookVersion,
    tradesRevision: change.head.tradesRevision,
    change,
  };
}

export function catalogNotice(refreshedAt: number): ChangeNotice {
  return { kind: 'catalog', refreshedAt };
}

/** The notice a catalogue change message carries, or `undefined` when the message is not one. */
export function parseCatalogNotice(text: string): ChangeNotice | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  const notice = value as Record<string, unknown>;
  if (notice.kind === 'catalog' && typeof notice.refreshedAt === 'number') {
    return { kind: 'catalog', refreshedAt: notice.refreshedAt };
  }
  return undefined;
}
