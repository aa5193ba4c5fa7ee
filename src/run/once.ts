/**
 * A value fetched at most once, by whichever end asks first: the action's ends share the
 * authorisation and the thread this way instead of passing them through the Run.
 */
export function once<T>(make: () => Promise<T>): () => Promise<T> {
  let made: Promise<T> | undefined;
  return () => (made ??= make());
}
