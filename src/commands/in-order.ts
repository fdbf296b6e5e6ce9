/**
 * Work on many files with a few engine workers: at most `limit` tasks run
 * at once (more would only wait in the pool's queue, which has a limit of
 * its own), and the results come back as promises in the items' order, so
 * output can be printed in a stable order while later files are checked.
 */
export function inOrder<T, R>(items: readonly T[], limit: number, task: (item: T, index: number) => Promise<R>): Promise<R>[] {
  const starters: (() => void)[] = [];
  let running = 0;
  const next = (): void => {
    while (running < limit && starters.length > 0) {
      running++;
      starters.shift()!();
    }
  };
  const results = items.map(
    (item, index) =>
      new Promise<R>((resolve, reject) => {
        starters.push(() => {
          task(item, index)
            .then(resolve, reject)
            .finally(() => {
              running--;
              next();
            });
        });
      }),
  );
  // Awaited later, in order: a failure before its turn is not an unhandled rejection.
  for (const r of results) r.catch(() => {});
  next();
  return results;
}
