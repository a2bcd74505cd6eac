/** Where a store reports problems of its background work (a Nest `Logger` fits). */
export interface StoreLogger {
  warn(message: string): void;
}
