/** One item of the source and what its work came to: a value, an error, or not started (stopped). */
export type Ahead<T, R> =
  | { item: T; started: true; value: R }
  | { item: T; started: true; error: unknown }
  | { item: T; started: false };

/**
 * Starts `work` for up to `depth` items of `source` ahead of the one the consumer holds,
 * so slow work (the e-mail searches of a batch of records) overlaps what the consumer does with
 * earlier results (the requests of their chunks). Results come in source order. At most
 * `depth + 1` items and their results are held at once: memory stays bounded. A failure of `work`
 * is handed over, not thrown, so the consumer decides (and no rejection goes unhandled). Once
 * `stopped()` holds, nothing more is started; the items left are handed over `started: false`.
 */
export async function* lookAhead<T, R>(
  source: Iterable<T> | AsyncIterable<T>,
  work: (item: T) => Promise<R>,
  depth: number,
  stopped: () => boolean,
): AsyncGenerator<Ahead<T, R>> {
  const queue: { item: T; result: Promise<Ahead<T, R>> }[] = [];
  // A source still being filled (a staging followed while the inputs are read) is asynchronous.
  const iterator =
    Symbol.asyncIterator in source ? source[Symbol.asyncIterator]() : source[Symbol.iterator]();
  let exhausted = false;
  const next = async (): Promise<T | undefined> => {
    if (exhausted) return undefined;
    const step = await iterator.next();
    if (step.done) exhausted = true;
    return step.done ? undefined : step.value;
  };
  for (;;) {
    while (queue.length <= depth && !exhausted && !stopped()) {
      const item = await next();
      if (item === undefined) break;
      const result = work(item).then(
        (value): Ahead<T, R> => ({ item, started: true, value }),
        (error: unknown): Ahead<T, R> => ({ item, started: true, error }),
      );
      queue.push({ item, result });
    }
    const head = queue.shift();
    if (head) {
      yield await head.result;
      continue;
    }
    const item = await next();
    if (item === undefined) return;
    yield { item, started: false };
  }
}
