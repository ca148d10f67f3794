/** A hook's deadline when its settings give no `timeout`: 60 seconds. */
export const DEFAULT_TIMEOUT_MS = 60_000;

/**
 * The longest deadline a hook may have: the largest delay a Node.js timer honours (about 24.8
 * days). A larger delay would make the timer fire at once, so it is rejected instead.
 */
export const MAX_TIMEOUT_MS = 2_147_483_647;

/** A duration string: a decimal number and its unit, `ms`, `s`, `m` or `h`, with no space. */
export const DURATION_PATTERN = /^(\d+(?:\.\d+)?)(ms|s|m|h)$/;

const unitMilliseconds: Readonly<Record<string, number>> = {
  ms: 1,
  s: 1000,
  m: 60_000,
  h: 3_600_000,
};
const unitWords: Readonly<Record<string, string>> = {
  millisecond: 'ms',
  milliseconds: 'ms',
  msec: 'ms',
  msecs: 'ms',
  sec: 's',
  secs: 's',
  second: 's',
  seconds: 's',
  min: 'm',
  mins: 'm',
  minute: 'm',
  minutes: 'm',
  hr: 'h',
  hrs: 'h',
  hour: 'h',
  hours: 'h',
};

/** The outcome of reading a `timeout` value: milliseconds, or what is wrong and the fix. */
export type TimeoutResult =
  | { readonly ok: true; readonly milliseconds: number }
  | { readonly ok: false; readonly message: string; readonly fix: string };

const genericFix = 'write 30 (seconds) or "30s"; units are ms, s, m and h, e.g. "500ms", "2m"';

/**
 * Reads a hook `timeout`. A number is seconds (`30` → 30 000 ms, `1.5` → 1 500 ms); a string
 * carries its unit (`"500ms"`, `"30s"`, `"1.5s"`, `"2m"`, `"1h"`). A unitless string (`"30"`),
 * a spelled-out unit (`"5 minutes"`), zero, a negative or non-finite value, a value that rounds
 * to 0 ms, or one longer than `MAX_TIMEOUT_MS` is an error whose fix shows what to write.
 * Milliseconds are rounded to the nearest integer.
 */
export function parseTimeout(value: unknown): TimeoutResult {
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) {
      return {
        ok: false,
        message: `timeout ${String(value)} is not a finite number`,
        fix: genericFix,
      };
    }
    return fromMilliseconds(value * 1000, `${value}`);
  }
  if (typeof value !== 'string') {
    return {
      ok: false,
      message: `timeout must be a number of seconds or a string with a unit, got ${describeType(value)}`,
      fix: genericFix,
    };
  }
  const match = DURATION_PATTERN.exec(value);
  if (match === null) return explainBadDuration(value);
  const amount = Number(match[1]);
  const unit = match[2] ?? 's';
  return fromMilliseconds(amount * (unitMilliseconds[unit] ?? 1000), JSON.stringify(value));
}

function fromMilliseconds(milliseconds: number, shown: string): TimeoutResult {
  if (milliseconds <= 0) {
    return {
      ok: false,
      message: `timeout ${shown} must be greater than zero`,
      fix: 'give the hook time to run: write 30 (seconds) or "30s"; leave timeout out for the 60 s default',
    };
  }
  const rounded = Math.round(milliseconds);
  if (rounded === 0) {
    return {
      ok: false,
      message: `timeout ${shown} is shorter than 1 ms`,
      fix: 'write at least "1ms"',
    };
  }
  if (rounded > MAX_TIMEOUT_MS) {
    return {
      ok: false,
      message: `timeout ${shown} is longer than the longest supported deadline (${MAX_TIMEOUT_MS} ms, about 24.8 days)`,
      fix: 'write a shorter timeout, e.g. "10m"',
    };
  }
  return { ok: true, milliseconds: rounded };
}

function explainBadDuration(value: string): TimeoutResult {
  const trimmed = value.trim();
  if (/^[+-]?\d+(?:\.\d+)?$/.test(trimmed)) {
    return {
      ok: false,
      message: `timeout ${JSON.stringify(value)} has no unit, so it is ambiguous (seconds or milliseconds?)`,
      fix: `write ${trimmed} (seconds) or "${trimmed}s"`,
    };
  }
  const spelled = /^(\d+(?:\.\d+)?)\s*([A-Za-z]+)$/.exec(trimmed);
  if (spelled !== null) {
    const unit = spelled[2] ?? '';
    const short =
      unitWords[unit.toLowerCase()] ??
      (unitMilliseconds[unit.toLowerCase()] === undefined ? undefined : unit.toLowerCase());
    if (short !== undefined) {
      return {
        ok: false,
        message: `timeout ${JSON.stringify(value)} is not a duration hookwire reads`,
        fix: `write "${spelled[1] ?? ''}${short}"`,
      };
    }
    return {
      ok: false,
      message: `timeout ${JSON.stringify(value)} has an unknown unit "${unit}"`,
      fix: genericFix,
    };
  }
  if (/^-\s*\d/.test(trimmed)) {
    return {
      ok: false,
      message: `timeout ${JSON.stringify(value)} must be greater than zero`,
      fix: genericFix,
    };
  }
  return {
    ok: false,
    message: `timeout ${JSON.stringify(value)} is not a duration`,
    fix: genericFix,
  };
}

/** A readable duration for listings: `"500ms"`, `"1.5s"`, `"30s"`, `"2m"`, `"1h"`. */
export function formatDuration(milliseconds: number): string {
  if (milliseconds % 3_600_000 === 0) return `${milliseconds / 3_600_000}h`;
  if (milliseconds % 60_000 === 0) return `${milliseconds / 60_000}m`;
  if (milliseconds >= 1000 && milliseconds % 100 === 0) return `${milliseconds / 1000}s`;
  return `${milliseconds}ms`;
}

/** `string`, `boolean`, `null`, `array`, `object`…: how a JSON value's type is named in messages. */
export function describeType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (value === undefined) return 'nothing';
  const type = typeof value;
  return type === 'object' ? 'an object' : `a ${type}`;
}
