/** A user of the sandbox exchange: login, trading accounts and REST API keys. */
export interface SandboxUser {
  readonly userId: number;
  readonly email: string;
  readonly password: string;
  /** Trading accounts of the user; the first is the default account. */
  readonly accounts: readonly number[];
  /**
   * The venue operator sees and acts on every account: GetTradesHistory without an AccountId returns
   * the executions of all accounts, and later private calls may act on other users' orders.
   */
  readonly operator: boolean;
  /** Public key (a UUID) of the REST key pair; sent in the `Key` header. */
  readonly publicKey: string;
  /** Private key of the REST key pair; keys the HMAC of the `Sign` header. */
  readonly privateKey: string;
  /**
   * What each of the user's accounts holds at start, per asset (lower case), as plain decimal text;
   * undefined gives every account the sandbox's default starting balances.
   */
  readonly balances?: Readonly<Record<string, string>>;
  readonly nickname: number;
  readonly countryCode: number;
  /** ISO 8601 UTC. */
  readonly createdAt: string;
}
