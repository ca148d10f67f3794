/**
 * A value built on its first use and shared after: `lazy(() => z.strictObject({…}))` is called as
 * `schema()`. hookwire's zod schemas are built this way, never at import. Constructing zod
 * schemas is costly the first time in a process (the library's code runs cold): the wire's and
 * the events' schemas together cost about 20 ms of `hookwire run`, which checks none of them when
 * no hook answers. Each schema is built once, so every use shares the same instance (the JSON
 * Schemas generated from them see the same structure as before).
 */
export function lazy<T>(build: () => T): () => T {
  let built = false;
  let value: T | undefined;
  return () => {
    if (!built) {
      value = build();
      built = true;
    }
    return value as T;
  };
}
