/**
 * A small benchmark harness: every figure is measured beside its baseline in the same run, with
 * the two interleaved round by round so machine noise hits both alike, and reported as medians
 * and a ratio (never a single absolute time).
 */

export interface Measured {
  readonly median: number;
  readonly p90: number;
  readonly samples: number;
}

export interface Comparison {
  readonly name: string;
  readonly candidate: Measured;
  readonly baseline: Measured;
  /** candidate median / baseline median */
  readonly ratio: number;
  readonly unit: string;
  /** The bound the issue sets for `ratio`, when it sets one. */
  readonly limit?: number;
}

export interface CompareOptions {
  /** Rounds of (candidate, baseline) pairs. */
  readonly rounds: number;
  /** Operations timed per sample; the figure reported is time per operation. */
  readonly operationsPerSample?: number;
  /** Unmeasured rounds first, to warm the JIT and caches. */
  readonly warmupRounds?: number;
  readonly limit?: number;
  /** Unit of the reported figure; `µs` by default. */
  readonly unit?: 'ns' | 'µs' | 'ms';
  /**
   * `wall` (default): elapsed time. `cpu`: this process's CPU time (user + system), which a
   * machine shared with other work disturbs far less, for purely in-process work.
   */
  readonly clock?: 'wall' | 'cpu';
}

type Operation = () => unknown;

const results: Comparison[] = [];

function summarize(samples: number[]): Measured {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
  return { median: at(0.5), p90: at(0.9), samples: sorted.length };
}

async function timeOnce(
  operation: Operation,
  count: number,
  clock: 'wall' | 'cpu' = 'wall',
): Promise<number> {
  const start = process.hrtime.bigint();
  const cpu = clock === 'cpu' ? process.cpuUsage() : undefined;
  for (let index = 0; index < count; index++) {
    const value = operation();
    if (value instanceof Promise) await value;
  }
  if (cpu !== undefined) {
    const used = process.cpuUsage(cpu);
    return ((used.user + used.system) * 1000) / count; // ns of CPU per operation
  }
  return Number(process.hrtime.bigint() - start) / count; // ns per operation
}

const divisor = { ns: 1, µs: 1e3, ms: 1e6 } as const;

/** Times `candidate` and `baseline` interleaved, prints the medians and the ratio, records it. */
export async function compare(
  name: string,
  candidate: Operation,
  baseline: Operation,
  options: CompareOptions,
): Promise<Comparison> {
  const count = options.operationsPerSample ?? 1;
  const unit = options.unit ?? 'µs';
  for (let round = 0; round < (options.warmupRounds ?? 3); round++) {
    await timeOnce(candidate, count, options.clock);
    await timeOnce(baseline, count, options.clock);
  }
  const candidateSamples: number[] = [];
  const baselineSamples: number[] = [];
  for (let round = 0; round < options.rounds; round++) {
    // Alternate which goes first so neither always runs on a warmer cache.
    if (round % 2 === 0) {
      candidateSamples.push(await timeOnce(candidate, count, options.clock));
      baselineSamples.push(await timeOnce(baseline, count, options.clock));
    } else {
      baselineSamples.push(await timeOnce(baseline, count, options.clock));
      candidateSamples.push(await timeOnce(candidate, count, options.clock));
    }
  }
  const scale = (measured: Measured): Measured => ({
    median: measured.median / divisor[unit],
    p90: measured.p90 / divisor[unit],
    samples: measured.samples,
  });
  const candidateSummary = scale(summarize(candidateSamples));
  const baselineSummary = scale(summarize(baselineSamples));
  const comparison: Comparison = {
    name,
    candidate: candidateSummary,
    baseline: baselineSummary,
    ratio: candidateSummary.median / baselineSummary.median,
    unit,
    ...(options.limit === undefined ? {} : { limit: options.limit }),
  };
  results.push(comparison);
  print(comparison);
  return comparison;
}

/** Records a figure measured some other way (e.g. heap bytes) beside its baseline. */
export function record(comparison: Comparison): void {
  results.push(comparison);
  print(comparison);
}

function format(value: number): string {
  return value >= 100 ? value.toFixed(0) : value >= 10 ? value.toFixed(1) : value.toFixed(3);
}

function print(comparison: Comparison): void {
  const { candidate, baseline, unit, ratio, limit } = comparison;
  const verdict =
    limit === undefined
      ? ''
      : ratio <= limit
        ? `  (limit ${limit}×: ok)`
        : `  (limit ${limit}×: OVER)`;
  console.log(
    `${comparison.name}\n  median ${format(candidate.median)} ${unit} (p90 ${format(candidate.p90)})` +
      `  vs baseline ${format(baseline.median)} ${unit} (p90 ${format(baseline.p90)})` +
      `  ratio ${ratio.toFixed(3)}×${verdict}  [n=${candidate.samples}]`,
  );
}

export function allResults(): readonly Comparison[] {
  return results;
}
