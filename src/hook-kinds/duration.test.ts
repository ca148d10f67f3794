import { describe, expect, it } from 'vitest';
import { DEFAULT_TIMEOUT_MS, formatDuration, parseTimeout } from './duration.ts';

describe('parseTimeout', () => {
  it.each([
    [30, 30_000],
    [1.5, 1_500],
    [0.25, 250],
    ['500ms', 500],
    ['30s', 30_000],
    ['1.5s', 1_500],
    ['2m', 120_000],
    ['1h', 3_600_000],
    ['0.5ms', 1],
  ])('reads %j as %i ms', (value, milliseconds) => {
    expect(parseTimeout(value)).toEqual({ ok: true, milliseconds });
  });

  it.each([
    [
      '30',
      'timeout "30" has no unit, so it is ambiguous (seconds or milliseconds?)',
      'write 30 (seconds) or "30s"',
    ],
    ['5 minutes', 'timeout "5 minutes" is not a duration hookwire reads', 'write "5m"'],
    ['30 s', 'timeout "30 s" is not a duration hookwire reads', 'write "30s"'],
    [
      '10y',
      'timeout "10y" has an unknown unit "y"',
      'write 30 (seconds) or "30s"; units are ms, s, m and h, e.g. "500ms", "2m"',
    ],
    [
      '0s',
      'timeout "0s" must be greater than zero',
      'give the hook time to run: write 30 (seconds) or "30s"; leave timeout out for the 60 s default',
    ],
    [
      0,
      'timeout 0 must be greater than zero',
      'give the hook time to run: write 30 (seconds) or "30s"; leave timeout out for the 60 s default',
    ],
    [
      -5,
      'timeout -5 must be greater than zero',
      'give the hook time to run: write 30 (seconds) or "30s"; leave timeout out for the 60 s default',
    ],
    [
      '-5s',
      'timeout "-5s" must be greater than zero',
      'write 30 (seconds) or "30s"; units are ms, s, m and h, e.g. "500ms", "2m"',
    ],
    [
      Number.POSITIVE_INFINITY,
      'timeout Infinity is not a finite number',
      'write 30 (seconds) or "30s"; units are ms, s, m and h, e.g. "500ms", "2m"',
    ],
    [
      Number.NaN,
      'timeout NaN is not a finite number',
      'write 30 (seconds) or "30s"; units are ms, s, m and h, e.g. "500ms", "2m"',
    ],
    [0.0001, 'timeout 0.0001 is shorter than 1 ms', 'write at least "1ms"'],
    ['0.1ms', 'timeout "0.1ms" is shorter than 1 ms', 'write at least "1ms"'],
    [
      3_000_000,
      'timeout 3000000 is longer than the longest supported deadline (2147483647 ms, about 24.8 days)',
      'write a shorter timeout, e.g. "10m"',
    ],
    [
      true,
      'timeout must be a number of seconds or a string with a unit, got a boolean',
      'write 30 (seconds) or "30s"; units are ms, s, m and h, e.g. "500ms", "2m"',
    ],
    [
      null,
      'timeout must be a number of seconds or a string with a unit, got null',
      'write 30 (seconds) or "30s"; units are ms, s, m and h, e.g. "500ms", "2m"',
    ],
  ])('rejects %j', (value, message, fix) => {
    expect(parseTimeout(value)).toEqual({ ok: false, message, fix });
  });

  it('defaults to 60 seconds', () => {
    expect(DEFAULT_TIMEOUT_MS).toBe(60_000);
  });
});

describe('formatDuration', () => {
  it.each([
    [500, '500ms'],
    [1_500, '1.5s'],
    [30_000, '30s'],
    [120_000, '2m'],
    [3_600_000, '1h'],
    [1_234, '1234ms'],
  ])('writes %i ms as %s', (milliseconds, text) => {
    expect(formatDuration(milliseconds)).toBe(text);
    if (!text.endsWith('ms') || text === '500ms') {
      expect(parseTimeout(text)).toEqual({ ok: true, milliseconds });
    }
  });
});
