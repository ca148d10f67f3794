import type { ToolResponseBlock } from '../../../content/index.ts';

/**
 * The text a provider that takes tool results as text receives for a tool response. A failed
 * tool (`error` set) reads `Error: <error>` and its result, if any, is not sent: the model must
 * see that the call failed. Otherwise a string result is sent as is, `undefined`/`null` as the
 * empty string, and anything else as JSON.
 */
export function toolResultText(block: ToolResponseBlock): string {
  if (block.error !== undefined) return `Error: ${block.error}`;
  const { result } = block;
  if (typeof result === 'string') return result;
  if (result === undefined || result === null) return '';
  // JSON.stringify returns undefined for functions and symbols, whatever its type says.
  const json = JSON.stringify(result) as string | undefined;
  return json ?? '';
}
