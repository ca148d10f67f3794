import type { HookRunRecord } from '../hook-kinds/group/index.ts';
import type { HookFailureSummary } from '../loop/result-object.ts';

/** One hook's count of runs and of failures closed. */
interface Tally {
  readonly hook: string;
  readonly event: string;
  readonly command: string;
  runs: number;
  failures: number;
  last: string;
}

/**
 * Counts, hook by hook, the runs that failed closed (a failClosed hook that crashed, timed out
 * or could not start, and so denied what it guards), so a guard that keeps failing is not
 * silent: `report()` gives one stderr line per such hook with its count, and `summaries()` the
 * `hookFailures` of the run's result.
 */
export class HookFailureTally {
  /** Each hook's tally by name, then by target (no key is built per run). */
  readonly #byName = new Map<string, Map<string, Tally>>();
  /** The tallies in the order their hooks first ran. */
  readonly #hooks: Tally[] = [];

  /** Counts one settled hook run. */
  add(record: HookRunRecord): void {
    let byTarget = this.#byName.get(record.name);
    if (byTarget === undefined)
      this.#byName.set(record.name, (byTarget = new Map<string, Tally>()));
    let entry = byTarget.get(record.target);
    if (entry === undefined) {
      entry = {
        hook: record.name,
        event: record.event,
        command: record.target,
        runs: 0,
        failures: 0,
        last: '',
      };
      byTarget.set(record.target, entry);
      this.#hooks.push(entry);
    }
    entry.runs++;
    if (record.status === 'failed-closed') {
      entry.failures++;
      entry.last = record.detail ?? 'failed';
    }
  }

  /** The hooks that failed closed at least once, in the order they first ran. */
  summaries(): HookFailureSummary[] {
    return this.#hooks
      .filter((entry) => entry.failures > 0)
      .map((entry) => ({
        hook: entry.hook,
        event: entry.event,
        command: entry.command,
        failures: entry.failures,
        runs: entry.runs,
        last: entry.last,
      }));
  }

  /** One line per hook that failed closed: its name, its count and its last failure. */
  report(): string[] {
    return this.summaries().map(
      (summary) =>
        `hookwire: failClosed hook "${summary.hook}" (${summary.event}) failed ${summary.failures} of ${summary.runs} run(s), denying what it guards each time; last failure: ${oneLine(summary.last)}`,
    );
  }
}

function oneLine(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= 500 ? flat : `${flat.slice(0, 500)}…`;
}
