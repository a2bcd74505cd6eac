/**
 * Values that must never leave the process in a log line: the upstream password, the Redis
 * password, session tokens as the exchange hands them out. Registered once known; every log line
 * passes through `scrubSecrets` on its way out.
 */
const secrets = new Set<string>();
/** Longest first, so that a secret inside a longer one does not leave the rest of the longer one. */
let ordered: string[] = [];

/** The shortest value worth scrubbing: shorter ones would blank out ordinary words and numbers. */
const MIN_SECRET_LENGTH = 4;

export const REDACTED = '[redacted]';

/** Remembers a secret value (and its JSON- and URL-encoded forms), so that no log line shows it. */
export function registerSecret(value: string | undefined | null): void {
  if (!value || value.length < MIN_SECRET_LENGTH) return;
  for (const form of [value, JSON.stringify(value).slice(1, -1), encodeURIComponent(value)]) {
    if (form.length >= MIN_SECRET_LENGTH) secrets.add(form);
  }
  ordered = [...secrets].sort((a, b) => b.length - a.length);
}

/** Registers the password of a `redis://user:password@host` URL. */
export function registerUrlPassword(url: string | undefined): void {
  if (!url) return;
  try {
    const password = new URL(url).password;
    registerSecret(password);
    registerSecret(decodeURIComponent(password));
  } catch {
    // Not a URL: configuration validation reports it, without its value.
  }
}

/**
 * Secrets that follow a recognisable name, whatever their value: token and password query
 * parameters, `Authorization` header values, JSON `password`/`token` fields, URL user info.
 */
const PATTERNS: readonly [RegExp, string][] = [
  [/([?&](?:session_token|access_token|token|password)=)[^&\s"'#]+/gi, `$1${REDACTED}`],
  [/(authorization\\?"?\s*[:=]\s*\\?"?(?:bearer|basic)?\s*)[^\s",\\]+/gi, `$1${REDACTED}`],
  [
    /(\\?"(?:[A-Za-z_]*(?:password|token|secret))\\?"\s*:\s*\\?")(?:[^"\\]|\\[^"])*(\\?")/gi,
    `$1${REDACTED}$2`,
  ],
  [/(\b(?:redis|rediss|https?|wss?):\/\/[^\s:/@"]*:)[^\s@/"]+@/gi, `$1${REDACTED}@`],
];

/** `text` with every registered secret value and every recognisable secret replaced. */
export function scrubSecrets(text: string): string {
  let scrubbed = text;
  for (const secret of ordered) {
    if (scrubbed.includes(secret)) scrubbed = scrubbed.split(secret).join(REDACTED);
  }
  for (const [pattern, replacement] of PATTERNS) scrubbed = scrubbed.replace(pattern, replacement);
  return scrubbed;
}
