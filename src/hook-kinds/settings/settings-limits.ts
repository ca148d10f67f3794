import type { SettingsIssue } from './settings-issue.ts';

/**
 * The bounds a settings file must stay within. Settings are written by people, so each limit is
 * far above any real file, and each keeps validation of a hostile or broken file (a generated
 * megabyte of groups, ten thousand unclosed brackets) within a fraction of a second and a small,
 * flat amount of memory. Crossing one is an issue naming the limit, like any other.
 */
export const SETTINGS_LIMITS = {
  /** The largest settings file read, in bytes (1 MiB; real files are a few KiB). */
  maxBytes: 1024 * 1024,
  /** The deepest nesting of objects and arrays (a valid file nests 6 levels: file, hooks, event, group, hooks, hook). */
  maxDepth: 32,
  /** Hook groups under one event name. */
  maxGroupsPerEvent: 1000,
  /** Hooks in one group. */
  maxHooksPerGroup: 100,
  /** Entries in one list of settings: each of `permissions.allow`/`deny`/`ask`/`additionalDirectories`, and `passEnvironment`. */
  maxListEntries: 1000,
} as const;

/**
 * Issues collected from one file; past it, one more issue says the rest were not looked for.
 * It keeps the worst megabyte (every field of thousands of groups wrong) as fast as a sane file.
 */
export const MAX_ISSUES_PER_FILE = 1000;

/** Issues listed in a `SettingsError` message before the rest are summarised in one line. */
export const MAX_LISTED_ISSUES = 50;

/** `1048576` → `"1 MiB"`; other sizes in bytes. */
export function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024 && bytes % (1024 * 1024) === 0) return `${bytes / (1024 * 1024)} MiB`;
  if (bytes >= 1024 && bytes % 1024 === 0) return `${bytes / 1024} KiB`;
  return `${bytes} bytes`;
}

/** The issue of a file larger than `SETTINGS_LIMITS.maxBytes`. */
export function settingsTooLargeIssue(file: string, bytes: number): SettingsIssue {
  return {
    file,
    path: '',
    message: `the file is ${bytes} bytes, more than the limit of ${formatBytes(SETTINGS_LIMITS.maxBytes)} on a settings file`,
    fix: 'check that this is the settings file you meant; a settings file lists hooks and is a few KiB',
  };
}
