import { describe, expect, it } from 'vitest';
import { isoTime } from './timestamp.ts';

describe('isoTime', () => {
  it('formats exactly as Date#toISOString, for now and for given milliseconds', () => {
    const now = Date.now();
    const stamp = isoTime();
    expect(stamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(Date.parse(stamp)).toBeGreaterThanOrEqual(now);
    for (const ms of [0, 1, 1_700_000_000_123, now, now - 1, now, 1_700_000_000_123, -1, 8.64e15])
      expect(isoTime(ms)).toBe(new Date(ms).toISOString());
  });

  it('keeps two milliseconds apart when they alternate (a start time and now)', () => {
    const start = 1_800_000_000_000;
    for (let round = 0; round < 3; round++) {
      expect(isoTime(start)).toBe('2027-01-15T08:00:00.000Z');
      expect(isoTime(start + 5)).toBe('2027-01-15T08:00:00.005Z');
    }
    expect(isoTime(start + 6)).toBe('2027-01-15T08:00:00.006Z');
    expect(isoTime(start)).toBe('2027-01-15T08:00:00.000Z');
  });

  it('formats every millisecond of a second, across seconds, years and the epoch, as toISOString', () => {
    const checked: number[] = [];
    for (const base of [1_800_000_000_000, 1_799_999_999_000, -2_000, 253_402_300_799_000])
      for (let offset = 0; offset < 1000; offset += 7) checked.push(base + offset, base + 999);
    checked.push(8.64e15, -8.64e15, -1, 0, 999, 1000, 1.5, -0.5);
    for (const ms of checked) expect(isoTime(ms)).toBe(new Date(ms).toISOString());
    expect(() => isoTime(8.64e15 + 1)).toThrow(RangeError);
    expect(() => isoTime(Number.NaN)).toThrow(RangeError);
  });
});
