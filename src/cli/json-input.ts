import { HOOK_JSON_LIMITS, jsonTextDepthExceeds } from '../wire/index.ts';
import { CliError } from './cli-error.ts';

/** 1-based line and column of character `offset` in `text`. */
function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let index = 0; index < offset && index < text.length; index++) {
    if (text.charCodeAt(index) === 10) {
      line++;
      lineStart = index + 1;
    }
  }
  return { line, column: offset - lineStart + 1 };
}

function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return `a ${typeof value}`;
}

/**
 * Parses a hook payload: one JSON object, nested at most `HOOK_JSON_LIMITS.maxDepth` levels.
 * Whitespace-only text is `{}` (no payload given). Invalid or too deep JSON is a `CliError` naming
 * `source`, the line and column, and the problem; any other JSON value is a `CliError` saying an
 * object is expected.
 */
export function parseJsonObjectInput(text: string, source: string): Record<string, unknown> {
  if (text.trim() === '') return {};
  const tooDeep = jsonTextDepthExceeds(text, HOOK_JSON_LIMITS.maxDepth);
  if (tooDeep !== -1) {
    const { line, column } = lineAndColumn(text, tooDeep);
    throw new CliError(
      `The payload in ${source} nests deeper than the limit of ${HOOK_JSON_LIMITS.maxDepth} levels (at line ${line}, column ${column}): hooks are never sent a payload that deep. Flatten it.`,
      { code: 'hook_input_invalid' },
    );
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const position = /position (\d+)/.exec(message);
    const where =
      position?.[1] === undefined
        ? ''
        : (() => {
            const { line, column } = lineAndColumn(text, Number(position[1]));
            return ` at line ${line}, column ${column}`;
          })();
    throw new CliError(
      `The payload in ${source} is not valid JSON${where}: ${message}. Give one JSON object, e.g. {"tool_name": "shell", "tool_input": {"command": "ls"}}.`,
      { code: 'hook_input_invalid' },
    );
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new CliError(
      `The payload in ${source} is ${kindOf(value)}; it must be one JSON object with the event's fields, e.g. {"prompt": "hello"}.`,
      { code: 'hook_input_invalid' },
    );
  }
  return value as Record<string, unknown>;
}
