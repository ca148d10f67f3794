/**
 * The canonical finish-reason vocabulary. Every provider adapter maps its own raw stop reason to
 * one of these at its own boundary and keeps the raw value as `rawStopReason`.
 *
 * - `stop`: the model finished its answer naturally.
 * - `max_tokens`: the output hit the token cap.
 * - `tool_calls`: the model stopped to call tools.
 * - `safety`: a safety filter cut or blocked the output.
 * - `refusal`: the model refused.
 * - `error`: the provider reported a failure for this response.
 * - `other`: a reason outside this vocabulary; `rawStopReason` says which.
 *
 * "No reason reported" is `undefined`, never `stop`.
 */
export const FINISH_REASONS = [
  'stop',
  'max_tokens',
  'tool_calls',
  'safety',
  'refusal',
  'error',
  'other',
] as const;

export type FinishReason = (typeof FINISH_REASONS)[number];

/** A response's termination metadata in portable form. Both fields absent: none was reported. */
export interface FinishInfo {
  readonly finishReason?: FinishReason;
  /** The provider's own word for it (`end_turn`, `STOP`, `length`, `RECITATION`, …). */
  readonly rawStopReason?: string;
}

const canonical: ReadonlySet<string> = new Set(FINISH_REASONS);

/** True when `value` is one of the canonical finish reasons (and not, say, `'constructor'`). */
export function isFinishReason(value: unknown): value is FinishReason {
  return typeof value === 'string' && canonical.has(value);
}

/** True for the reasons that mean the output was cut short: `max_tokens`, `safety`, `refusal`. */
export function isTruncatedOutput(reason: FinishReason | undefined): boolean {
  return reason === 'max_tokens' || reason === 'safety' || reason === 'refusal';
}

/**
 * Reconciles a reported reason with the response content: a `stop` on a response that carries tool
 * calls reads as `tool_calls` (several providers say `stop` there). Anything else is kept,
 * including `undefined`.
 */
export function reconcileFinishReason(
  reason: FinishReason | undefined,
  hasToolCalls: boolean,
): FinishReason | undefined {
  return reason === 'stop' && hasToolCalls ? 'tool_calls' : reason;
}

/**
 * A provider's raw-reason table, safe against any input string: lookups use own properties of a
 * prototype-free map, so `'constructor'` or `'__proto__'` map to `other` like any unknown value.
 */
export class FinishReasonMap {
  readonly #table: ReadonlyMap<string, FinishReason>;

  constructor(entries: Readonly<Record<string, FinishReason>>) {
    this.#table = new Map(Object.entries(entries));
  }

  /** Every raw value the table knows, in declaration order (used to test tables value by value). */
  get rawValues(): readonly string[] {
    return [...this.#table.keys()];
  }

  /**
   * Maps a raw reason. `null`/`undefined`/empty means the provider reported none: the result has
   * neither field. An unknown raw value maps to `other` and is kept as `rawStopReason`.
   */
  map(raw: string | null | undefined): FinishInfo {
    if (raw === undefined || raw === null || raw === '') return {};
    return { finishReason: this.#table.get(raw) ?? 'other', rawStopReason: raw };
  }
}
