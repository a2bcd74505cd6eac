import { WriteFence } from './state-store';

/**
 * The text a lease key holds: `{token}:{owner}`. The token comes first because it never contains
 * a colon, so an owner may. A fenced write compares this exact text.
 */
export function encodeLease(fence: WriteFence): string {
  if (!Number.isSafeInteger(fence.token) || fence.token < 0) {
    throw new Error(`invalid fencing token ${fence.token}: must be a non-negative safe integer`);
  }
  if (fence.owner.length === 0) throw new Error('invalid lease owner: empty');
  return `${fence.token}:${fence.owner}`;
}

/** The fence a lease key's text describes, or `undefined` when the text is not a lease. */
export function decodeLease(text: string): WriteFence | undefined {
  const match = /^(0|[1-9]\d*):(.+)$/s.exec(text);
  if (!match) return undefined;
  const token = Number(match[1]);
  return Number.isSafeInteger(token) ? { owner: match[2], token } : undefined;
}
