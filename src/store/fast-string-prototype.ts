/**
 * Puts `String.prototype` back into V8's fast mode, which loading ioredis takes from it: its
 * `class VerbatimString extends String` leaves the prototype a dictionary until a lookup through an
 * heir of it misses, and on a dictionary no string method is inlined (a tenth of the ingest's CPU,
 * BENCHMARKS.md, Profiles). Call it once every module is loaded, before the hot code is optimised.
 */
export function restoreFastStringPrototype(): void {
  const heir: Record<string, unknown> = Object.create(String.prototype);
  const lookUpMissing = (): unknown => heir.missing;
  // Enough calls for the function to record feedback, from which V8 turns the prototype back.
  for (let call = 0; call < 100; call++) lookUpMissing();
}
