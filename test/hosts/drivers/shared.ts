/** What every driver shares: the project a run happens in, and the transcript's turn end. */
import type { TranscriptRecord } from '../../../src/loop/index.ts';
import type { HostOutcome } from '../scenarios.ts';

/** A fresh project folder with isolated settings layers (see `createAiSdkProject`). */
export interface Project {
  readonly dir: string;
  readonly env: { HOOKWIRE_HOME: string; HOOKWIRE_MANAGED_SETTINGS: string };
  settings(file: string, hooks: Record<string, unknown>): Promise<string>;
}

/** The (single) `turn-end` record of a transcript, as a host outcome's `end`. */
export function turnEndOf(records: readonly TranscriptRecord[]): HostOutcome['end'] {
  const ends = records.filter((record) => record.type === 'turn-end');
  if (ends.length !== 1) throw new Error(`expected one turn-end record, found ${ends.length}`);
  const end = ends[0] as Extract<TranscriptRecord, { type: 'turn-end' }>;
  return end.reason === undefined
    ? { status: end.status }
    : { status: end.status, reason: end.reason };
}
