/**
 * Whether `promise` settles before a timer of `ms` started now fires. Timers fire in the order of
 * their deadlines however busy the machine is, so against a longer timer of the code under test
 * this is an order of events, not a measured time.
 */
export async function settlesWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  const settled = promise.then(
    () => true as const,
    () => true as const,
  );
  try {
    return await Promise.race([settled, late]);
  } finally {
    clearTimeout(timer);
  }
}
