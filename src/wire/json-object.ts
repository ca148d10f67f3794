/** True for a JSON object: any non-null object that is not an array (as `JSON.parse` makes them). */
export function isJsonObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
