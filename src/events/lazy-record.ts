/**
 * A record whose values are built on first read, once each: `record[key]` calls `build(key)` the
 * first time and returns the same value after. Used for the per-event zod schemas, which cost
 * milliseconds to construct at start-up and are read only when a hook's payload or answer is
 * checked (or the JSON Schemas are generated): a run that fires no external hook builds none.
 */
export function lazyRecord<K extends string, V>(
  keys: readonly K[],
  build: (key: K) => V,
): { readonly [P in K]: V } {
  const record = {} as Record<K, V>;
  for (const key of keys) {
    Object.defineProperty(record, key, {
      enumerable: true,
      configurable: true,
      get() {
        const value = build(key);
        Object.defineProperty(record, key, { value, enumerable: true, writable: false });
        return value;
      },
    });
  }
  return record;
}
