/**
 * Small readers shared by the dialects with envelopes of their own (`DialectEnvelope`): fields
 * of hookwire's payload, and of a hook's answer, in the shapes those tools use.
 */
import type { DialectFields } from './dialect-contract.ts';

/** A JSON object's member as a string, or `undefined`. */
export function stringField(
  fields: DialectFields,
  ...names: readonly string[]
): string | undefined {
  for (const name of names) {
    const value = fields[name];
    if (typeof value === 'string') return value;
  }
  return undefined;
}

/** The first of `names` that is present (snake_case and camelCase spellings of one answer field). */
export function anyField(fields: DialectFields, ...names: readonly string[]): unknown {
  for (const name of names) if (fields[name] !== undefined) return fields[name];
  return undefined;
}

/** A JSON object, or `undefined`. */
export function objectField(value: unknown): DialectFields | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as DialectFields)
    : undefined;
}

/** Arguments given as an object or as a JSON string of one (Copilot CLI's `toolArgs`). */
export function argumentsObject(value: unknown): DialectFields | undefined {
  if (typeof value !== 'string') return objectField(value);
  try {
    return objectField(JSON.parse(value));
  } catch {
    return undefined;
  }
}

/** A tool's result as the text a model reads. */
export function resultText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === undefined || value === null) return '';
  return JSON.stringify(value);
}

/** hookwire's ISO timestamp as Unix milliseconds (now when absent). */
export function epochMilliseconds(timestamp: unknown): number {
  const parsed = typeof timestamp === 'string' ? Date.parse(timestamp) : Number.NaN;
  return Number.isNaN(parsed) ? Date.now() : parsed;
}

/** The server and tool of an MCP tool's hookwire name `mcp__SERVER__TOOL`. */
export function mcpParts(name: string): { readonly server: string; readonly tool: string } {
  const rest = name.startsWith('mcp__') ? name.slice('mcp__'.length) : name;
  const at = rest.indexOf('__');
  return at < 0
    ? { server: '', tool: rest }
    : { server: rest.slice(0, at), tool: rest.slice(at + 2) };
}

/** An answer with its `hookSpecificOutput` set when any specific field was given. */
export function withSpecific(
  event: string,
  top: Record<string, unknown>,
  specific: Record<string, unknown>,
): DialectFields {
  return Object.keys(specific).length === 0
    ? top
    : { ...top, hookSpecificOutput: { hookEventName: event, ...specific } };
}
