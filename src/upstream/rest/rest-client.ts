import { UpstreamTap } from '../upstream-tap';
import { BookMessage } from '../../market/book-update';
import { MAX_CANDLES } from '../../market/candle-interval';
import { Candle } from '../../market/candle-stats';
import { ExactJson, parseExactJson } from '../exact-json';
import { decodeDepth } from './depth-codec';
import { parseExchangeErrors } from './exchange-error-body';
import { decodeHistory } from './history-codec';
import { HistoryRequest, historyQuery } from './history-request';
import { decodeInfo, ExchangeInfo } from './info-codec';
import { exchangeRecords } from './info-records';
import { MalformedBodyError } from '../malformed-body-error';
import { RequestBudget, restFamilyOf } from './request-budget';
import { RestBodyError, RestError, RestNetworkError, RestStatusError, RestTimeoutError } from './rest-errors';
import { checkBaseUrl, upstreamUrl } from '../upstream-url';
import { DEFAULT_RETRY_POLICY, RetryPolicy, retryDelay, parseRetryAfter } from './retry-policy';
import { RejectionSink, UpstreamRejections } from '../upstream-rejections';

/** Where the client reports retries and skipped markets; a Nest Logger fits. */
export interface RestLogger {
  warn(message: string): void;
}

export interface RestClientOptions {
  /** Root of the exchange's REST, possibly with a path: `https://host:8443/trading`. */
  readonly baseUrl: string;
  /** Every request, retries included, takes a permit from it first. */
  readonly budget: RequestBudget;
  /** Per request, from sending to the end of the body. */
  readonly timeoutMs?: number;
  readonly retry?: Partial<RetryPolicy>;
  /** Uniform in [0, 1): the jitter of the backoff. */
  readonly random?: () => number;
  /** Wall clock in Unix milliseconds: receive times and Retry-After dates. */
  readonly now?: () => number;
  readonly logger?: RestLogger;
  /** Counts and logs every body and market entry rejected as unreadable (default: logged, rate-limited). */
  readonly rejections?: RejectionSink;
  /** Hears the body of every successful answer (a recorder). */
  readonly tap?: UpstreamTap;
}

export interface CallOptions {
  /** Ends the call, wherever it is (waiting for the budget, in flight, backing off), with the signal's reason. */
  readonly signal?: AbortSignal;
}

export const DEFAULT_TIMEOUT_MS = 10_000;

/** Longest error body kept on a RestStatusError. */
const MAX_ERROR_TEXT = 4_000;

const SILENT: RestLogger = { warn: () => undefined };

interface Answer {
  readonly body: ExactJson;
  /** The body as received. */
  readonly text: string;
  readonly url: string;
  readonly attempts: number;
  readonly receivedAt: number;
}

/** Waits `ms`, or rejects with the signal's reason when it aborts first. */
function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * Client of the exchange's public REST (spec 4.1): market list, depth snapshots and candles.
 *
 * Each request first takes a permit of its path family from the budget, runs under a timeout and is
 * sent again after network errors, timeouts, 429 and 5xx with exponential backoff and full jitter
 * (at least as long as any Retry-After), up to the attempt limit. Other statuses end the call at
 * once with a RestStatusError carrying the exchange's error body. Every failure is a RestError;
 * aborting the caller's signal ends the call with the signal's reason.
 */
export class RestClient {
  private readonly baseUrl: string;
  private readonly budget: RequestBudget;
  private readonly timeoutMs: number;
  private readonly retry: RetryPolicy;
  private readonly random: () => number;
  private readonly now: () => number;
  private readonly logger: RestLogger;
  private readonly rejections: RejectionSink;
  private readonly tap?: UpstreamTap;

  constructor(options: RestClientOptions) {
    this.baseUrl = checkBaseUrl(options.baseUrl);
    this.budget = options.budget;
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.retry = { ...DEFAULT_RETRY_POLICY, ...options.retry };
    this.random = options.random ?? Math.random;
    this.now = options.now ?? Date.now;
    this.logger = options.logger ?? SILENT;
    this.rejections = options.rejections ?? new UpstreamRejections(this.logger);
    this.tap = options.tap;
    if (!(this.timeoutMs > 0)) throw new RangeError('timeoutMs must be positive');
    if (!Number.isInteger(this.retry.maxAttempts) || this.retry.maxAttempts < 1) {
      throw new RangeError('retry.maxAttempts must be a positive integer');
    }
  }

  /** `GET /frontoffice/api/info`: every market, hidden ones included; broken entries are skipped and logged. */
  async info(options: CallOptions = {}): Promise<ExchangeInfo> {
    const answer = await this.get('/frontoffice/api/info', {}, options.signal);
    const info = this.decode(answer, () => decodeInfo(answer.body, exchangeRecords(answer.text)));
    for (const { problem } of info.skipped)
      this.rejections.rejected('rest', 'invalid-market', `market left out of ${answer.url}: ${problem}`);
    return info;
  }

  /** `GET /marketdata/instruments/{instrument}/depth`: the whole book as a snapshot message. */
  async depth(instrument: string, options: CallOptions = {}): Promise<BookMessage> {
    const id = instrument.toLowerCase();
    const answer = await this.get(
      `/marketdata/instruments/${encodeURIComponent(id)}/depth`,
      {},
      options.signal,
    );
    const book = this.decode(answer, () => decodeDepth(answer.body, answer.receivedAt));
    this.checkInstrument(answer, id, book.instrument);
    return book;
  }

  /**
   * `GET /marketdata/instruments/{instrument}/history`: candles oldest first. Should the exchange
   * send more than `count`, the newest `count` are kept, as the exchange itself does.
   */
  async history(instrument: string, request: HistoryRequest, options: CallOptions = {}): Promise<Candle[]> {
    const id = instrument.toLowerCase();
    const query = historyQuery(request);
    const answer = await this.get(
      `/marketdata/instruments/${encodeURIComponent(id)}/history`,
      query,
      options.signal,
    );
    const history = this.decode(answer, () => decodeHistory(answer.body));
    this.checkInstrument(answer, id, history.instrument);
    const count = request.count ?? MAX_CANDLES;
    return history.candles.slice(Math.max(0, history.candles.length - count));
  }

  private async get(path: string, query: Record<string, string>, signal?: AbortSignal): Promise<Answer> {
    const url = upstreamUrl(this.baseUrl, path, query);
    const family = restFamilyOf(path);
    for (let attempt = 1; ; attempt++) {
      const permit = await this.budget.acquire(family, signal);
      let text: string;
      let receivedAt: number;
      try {
        ({ text, receivedAt } = await this.send(url, attempt, signal));
      } catch (error) {
        permit.release();
        const delay = retryDelay(error, attempt, this.retry, this.random);
        if (delay === undefined) throw error;
        this.logger.warn(
          `${(error as RestError).message}; attempt ${attempt + 1} of ${this.retry.maxAttempts} in ${delay} ms`,
        );
        await sleep(delay, signal);
        continue;
      }
      permit.release();
      if (this.tap?.listening) this.tap.rest(path + new URL(url).search, text, receivedAt);
      let body: ExactJson;
      try {
        body = parseExactJson(text);
      } catch (error) {
        throw this.rejectedBody(
          'not-json',
          new RestBodyError(url, attempt, [`not JSON: ${(error as Error).message}`], error),
        );
      }
      return { body, text, url, attempts: attempt, receivedAt };
    }
  }

  /** One request: the body text of a 2xx answer, or the RestError of this attempt. */
  private async send(
    url: string,
    attempt: number,
    signal?: AbortSignal,
  ): Promise<{ text: string; receivedAt: number }> {
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, this.timeoutMs);
    const onAbort = () => controller.abort(signal!.reason);
    signal?.addEventListener('abort', onAbort, { once: true });
    try {
      const response = await fetch(url, {
        headers: { accept: 'application/json' },
        signal: controller.signal,
      });
      const text = await response.text();
      if (!response.ok) {
        throw new RestStatusError(
          url,
          attempt,
          response.status,
          parseExchangeErrors(text),
          text.slice(0, MAX_ERROR_TEXT),
          parseRetryAfter(response.headers.get('retry-after'), this.now()),
        );
      }
      return { text, receivedAt: this.now() };
    } catch (error) {
      if (error instanceof RestError) throw error;
      if (signal?.aborted) throw signal.reason;
      if (timedOut) throw new RestTimeoutError(url, attempt, this.timeoutMs);
      throw new RestNetworkError(url, attempt, error);
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    }
  }

  private decode<T>(answer: Answer, decode: () => T): T {
    try {
      return decode();
    } catch (error) {
      if (!(error instanceof MalformedBodyError)) throw error;
      throw this.rejectedBody(
        'invalid-body',
        new RestBodyError(answer.url, answer.attempts, error.problems, error),
      );
    }
  }

  private rejectedBody(reason: 'not-json' | 'invalid-body', error: RestBodyError): RestBodyError {
    this.rejections.rejected('rest', reason, error.message);
    return error;
  }

  private checkInstrument(answer: Answer, requested: string, received: string): void {
    if (received !== requested) {
      throw this.rejectedBody(
        'invalid-body',
        new RestBodyError(answer.url, answer.attempts, [
          `instrument: expected ${requested}, got ${received}`,
        ]),
      );
    }
  }
}
