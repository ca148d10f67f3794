/**
 * Decodes the JSON arguments a model produced for a tool call. An empty string means no
 * arguments (`{}`). Text that is not valid JSON is returned unchanged as a string, so the loop
 * reports an invalid tool call with the model's own text instead of the adapter throwing.
 */
export function parseToolArguments(raw: string): unknown {
  if (raw.trim() === '') return {};
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    return raw;
  }
}

/**
 * Encodes tool-call parameters for a provider that takes arguments as JSON text. A string is
 * sent as is (it is the model's own undecodable text, round-tripped exactly); `undefined` is `{}`.
 */
export function stringifyToolArguments(parameters: unknown): string {
  if (typeof parameters === 'string') return parameters;
  if (parameters === undefined) return '{}';
  return JSON.stringify(parameters);
}
