import { RunningSandbox } from '../../src/start-sandbox';
import { canonicalDecimal } from '../../src/wire/decimal-text';
import { ExactJson, parseExactJson } from '../../src/wire/exact-json';

export interface Truth {
  /** Best first, as canonical decimals. */
  readonly bids: [string, string][];
  readonly trades: { readonly id: string }[];
}

type Level = { price: string; amount: string };

/** The control API's truth of an instrument: its bids and its trades' ids. */
export async function readTruth(sandbox: RunningSandbox, instrument: string): Promise<Truth> {
  const response = await fetch(`${sandbox.baseUrl}/sandbox/truth/${instrument}`);
  if (!response.ok) throw new Error(`truth of ${instrument}: ${response.status}`);
  const body = parseExactJson(await response.text()) as unknown as {
    book: { bids: Level[] };
    trades: ExactJson[][];
  };
  return {
    bids: body.book.bids
      .map(({ price, amount }): [string, string] => [canonicalDecimal(price), canonicalDecimal(amount)])
      .reverse(),
    trades: body.trades.map((row) => ({ id: row[0] as string })),
  };
}
