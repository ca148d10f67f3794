import type { z } from 'zod';
import { HookwireError } from '../content/hookwire-error.ts';
import { unknownFieldHint } from './field-hints.ts';

/** One problem found while decoding a wire value: where (a JSON path such as `$.contents[0].speaker`) and what to do. */
export interface WireIssue {
  readonly path: string;
  readonly message: string;
}

/**
 * A wire value (a hook's output, an `llm_request`, an `llm_response`, a `toolChoice`) did not
 * decode. `subject` names what was decoded; `issues` lists every problem with its JSON path, in
 * document order, v1-migration hints first. The message lists them all, one per line.
 */
export class WireDecodeError extends HookwireError {
  readonly subject: string;
  readonly issues: readonly WireIssue[];

  constructor(subject: string, issues: readonly WireIssue[]) {
    const lines = issues.map((issue) => `  ${issue.path}: ${issue.message}`);
    super('wire_decode_failed', `${subject} is invalid:\n${lines.join('\n')}`);
    this.name = 'WireDecodeError';
    this.subject = subject;
    this.issues = issues;
  }
}

/**
 * The outcome of a decoder. Decoders never throw: bad input is a value the caller turns into a
 * warning (advisory hooks) or a denial (fail-closed hooks).
 */
export type WireDecodeResult<T> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly error: WireDecodeError };

/** Renders a zod path as a JSON path: `['contents', 0, 'speaker']` → `$.contents[0].speaker`. */
export function jsonPath(path: readonly PropertyKey[]): string {
  let result = '$';
  for (const segment of path) {
    if (typeof segment === 'number') result += `[${segment}]`;
    else if (typeof segment === 'string' && /^[A-Za-z_$][\w$]*$/.test(segment))
      result += `.${segment}`;
    else result += `[${JSON.stringify(String(segment))}]`;
  }
  return result;
}

/** Extra hint for an unknown field, chosen by the caller (e.g. "that field belongs to another event"). */
export type UnknownFieldHint = (key: string, path: readonly PropertyKey[]) => string | undefined;

function describeType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

/**
 * Turns zod issues into wire issues: one issue per unknown field (with the v1→v2 replacement or
 * the caller's hint when there is one), readable type errors, and v1 hints sorted first. A
 * "missing field" issue is dropped when an unknown v1 field at the same place already names it
 * as its replacement, so `{role: 'user'}` reads as one problem, not two.
 */
export function toWireIssues(
  error: z.ZodError,
  input: unknown,
  prefix: readonly PropertyKey[] = [],
  hint?: UnknownFieldHint,
): WireIssue[] {
  const migrations: { path: string; message: string }[] = [];
  const others: { path: string; message: string }[] = [];
  const replaced = new Set<string>();
  for (const issue of error.issues) {
    const path = [...prefix, ...issue.path];
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) {
        const known = unknownFieldHint(key);
        const callerHint = hint?.(key, path);
        const fieldPath = jsonPath([...path, key]);
        if (known !== undefined) {
          migrations.push({ path: fieldPath, message: known.message });
          replaced.add(jsonPath([...path, known.replacement]));
        } else {
          others.push({
            path: fieldPath,
            message: `unknown field \`${key}\`${callerHint === undefined ? '' : `: ${callerHint}`}`,
          });
        }
      }
      continue;
    }
    others.push({ path: jsonPath(path), message: messageOf(issue, valueAt(input, issue.path)) });
  }
  const remaining = others.filter(
    (issue) => !(replaced.has(issue.path) && issue.message.startsWith('required')),
  );
  return [...migrations, ...remaining];
}

function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let current = root;
  for (const segment of path) {
    if (typeof current !== 'object' || current === null) return undefined;
    current = (current as Record<PropertyKey, unknown>)[segment];
  }
  return current;
}

function messageOf(issue: z.core.$ZodIssue, value: unknown): string {
  // Messages set by a schema's own `error` function already say what to do.
  if (!issue.message.startsWith('Invalid')) return issue.message;
  if (issue.code === 'invalid_type') {
    const expected =
      issue.expected === 'nonoptional'
        ? 'a value'
        : issue.expected === 'record'
          ? 'object'
          : issue.expected;
    if (value === undefined) return `required field is missing (expected ${article(expected)})`;
    return `expected ${article(expected)}, got ${describeType(value)}`;
  }
  if (issue.code === 'invalid_value') {
    const allowed = issue.values.map((allowedValue) => JSON.stringify(allowedValue)).join(', ');
    return `${JSON.stringify(value)} is not allowed; expected ${allowed}`;
  }
  return issue.message;
}

function article(expected: string): string {
  if (expected === 'a value') return expected;
  return /^[aeiou]/.test(expected) ? `an ${expected}` : `a ${expected}`;
}

/** A failed result for `subject`. */
export function failure<T>(subject: string, issues: readonly WireIssue[]): WireDecodeResult<T> {
  return { ok: false, error: new WireDecodeError(subject, issues) };
}
