/**
 * Reads the first item of a stream before the answer is committed: a failure at the start (the
 * database cannot be reached) is then answered with its own status in the envelope instead of
 * a 200 whose body breaks off. Later failures can only cut the answer short.
 */
export async function primed<T>(source: AsyncIterable<T>): Promise<AsyncIterable<T>> {
  const iterator = source[Symbol.asyncIterator]();
  const first = await iterator.next();
  return (async function* () {
    if (first.done) return;
    yield first.value;
    for (let next = await iterator.next(); !next.done; next = await iterator.next()) yield next.value;
  })();
}
