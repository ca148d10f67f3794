/**
 * Whether JSON can encode a value: what `JSON.stringify` would throw on, found without encoding.
 *
 * A tool's result goes into the history, and from there into every later request: a provider
 * adapter encodes it as JSON on every model call. A value JSON cannot encode (a `BigInt`, a cycle)
 * would fail each of those calls, and the session with them, long after the tool that returned it.
 * The loop checks a result once, where it enters (see `tool-step.ts`).
 */

/** Deeper nesting than this is reported, not walked: no provider takes such a value anyway. */
export const MAX_JSON_DEPTH = 1000;

/** Where in a value JSON fails, and why. */
export interface JsonEncodingProblem {
  /** The path to the value, `$` for the root (`$.items[2].size`). */
  readonly path: string;
  readonly reason: string;
}

/**
 * What makes `value` impossible to encode as JSON, or `undefined` when `JSON.stringify` can encode
 * it: a `BigInt`, a cycle, a `toJSON` or a getter that throws, or nesting deeper than
 * {@link MAX_JSON_DEPTH}. Values JSON encodes with a loss (a function, `undefined`, `NaN`, a `Map`)
 * are not problems: they encode as JSON encodes them. A string, number or boolean costs one
 * `typeof`; an object is walked once, as `JSON.stringify` would walk it (after `toJSON`).
 */
export function jsonEncodingProblem(value: unknown): JsonEncodingProblem | undefined {
  if (typeof value !== 'object' && typeof value !== 'bigint') return undefined;
  const keys: (string | number)[] = [];
  let reason: string | undefined;
  try {
    reason = problemOf(value, '', [], keys);
  } catch (error) {
    reason = `reading it threw: ${error instanceof Error ? error.message : String(error)}`;
  }
  if (reason === undefined) return undefined;
  let path = '$';
  for (let index = keys.length - 1; index >= 0; index--) {
    const key = keys[index] as string | number;
    path += typeof key === 'number' ? `[${String(key)}]` : `.${key}`;
  }
  return { path, reason };
}

/**
 * The reason the value under `key` (an array's index: made a string only for a `toJSON`) cannot
 * be encoded, or `undefined`. On a problem, `keys` holds the path to it from the innermost key
 * outwards (pushed as the recursion unwinds).
 */
function problemOf(
  value: unknown,
  key: string | number,
  ancestors: object[],
  keys: (string | number)[],
): string | undefined {
  let current = value;
  if (typeof current === 'object' && current !== null) {
    const toJSON = (current as { readonly toJSON?: unknown }).toJSON;
    if (typeof toJSON === 'function') {
      try {
        // JSON.stringify hands toJSON the key as a string, an array index too.
        current = (toJSON as (this: object, key: string) => unknown).call(current, String(key));
      } catch (error) {
        return `its toJSON() threw: ${error instanceof Error ? error.message : String(error)}`;
      }
    }
  }
  if (typeof current === 'bigint') return 'a BigInt, which JSON cannot encode';
  if (typeof current !== 'object' || current === null) return undefined;
  if (current instanceof BigInt) return 'a BigInt object, which JSON cannot encode';
  if (ancestors.includes(current))
    return 'a reference back to an object that contains it (a cycle)';
  if (ancestors.length >= MAX_JSON_DEPTH)
    return `nested deeper than ${String(MAX_JSON_DEPTH)} levels`;
  ancestors.push(current);
  if (Array.isArray(current)) {
    for (let index = 0; index < current.length; index++) {
      const reason = problemOf(current[index], index, ancestors, keys);
      if (reason !== undefined) {
        keys.push(index);
        return reason;
      }
    }
  } else {
    const record = current as Record<string, unknown>;
    for (const name of Object.keys(record)) {
      const reason = problemOf(record[name], name, ancestors, keys);
      if (reason !== undefined) {
        keys.push(name);
        return reason;
      }
    }
  }
  ancestors.pop();
  return undefined;
}
