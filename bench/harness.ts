/**
 * A small benchmark harness: every figure is measured beside its baseline in the same run, with
 * the two interleaved round by round so machine noise hits both alike, and reported as medians
 * and a ratio (never a single absolute time).
 */
import { spawnSync } from 'node:child_process';

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

/** The figure a child process of `acrossProcesses` measures (unset in the parent). */
const childFigure = process.env.HOOKWIRE_BENCH_FIGURE;
const CHILD_LINE = '@@hookwire-bench-figure ';

/** Whether this process is a child of `acrossProcesses`: the rest of its benchmark is skipped. */
export function inBenchChild(): boolean {
  return childFigure !== undefined;
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

/**
 * Measures one figure in `processes` fresh Node processes, one after another (never two at once:
 * they would share the cores), and reports the median over them: each process's ratio of medians,
 * and their median against the limit. A figure whose spread comes from the machine over time
 * (timer wakeups, the host's other guests), not from the samples of one run, is measured over a
 * longer stretch this way, and no single process's draw decides it. Every process's ratio is
 * printed.
 *
 * `benchFile` is the benchmark's file name (the child runs `bench/run.ts benchFile` with
 * `HOOKWIRE_BENCH_FIGURE=id`); in the child, `measure` runs and its figure goes to the parent.
 * Returns the combined figure (the child's own, in a child).
 */
export async function acrossProcesses(
  benchFile: string,
  id: string,
  processes: number,
  measure: () => Promise<Comparison>,
): Promise<Comparison | undefined> {
  if (childFigure !== undefined) {
    if (childFigure !== id) return undefined;
    const comparison = await measure();
    process.stdout.write(`${CHILD_LINE}${JSON.stringify(comparison)}\n`);
    return comparison;
  }
  const runner = new URL('run.ts', import.meta.url).pathname;
  const figures: Comparison[] = [];
  for (let index = 0; index < processes; index++) {
    const child = spawnSync(process.execPath, [...process.execArgv, runner, benchFile], {
      env: { ...process.env, HOOKWIRE_BENCH_FIGURE: id },
      encoding: 'utf8',
      maxBuffer: 16 * 1024 * 1024,
    });
    const line = child.stdout.split('\n').find((text) => text.startsWith(CHILD_LINE));
    if (child.status !== 0 || line === undefined)
      throw new Error(
        `bench: the process measuring ${id} failed (exit ${String(child.status)}):\n${child.stderr}`,
      );
    figures.push(JSON.parse(line.slice(CHILD_LINE.length)) as Comparison);
  }
  const first = figures[0];
  if (first === undefined) throw new Error('bench: acrossProcesses needs at least one process');
  const across = (pick: (measured: Measured) => number, side: 'candidate' | 'baseline') =>
    median(figures.map((figure) => pick(figure[side])));
  const summary = (side: 'candidate' | 'baseline'): Measured => ({
    median: across((measured) => measured.median, side),
    p90: across((measured) => measured.p90, side),
    samples: figures.reduce((sum, figure) => sum + figure[side].samples, 0),
  });
  const comparison: Comparison = {
    name: `${first.name} [median of ${processes} processes]`,
    candidate: summary('candidate'),
    baseline: summary('baseline'),
    ratio: median(figures.map((figure) => figure.ratio)),
    unit: first.unit,
    ...(first.limit === undefined ? {} : { limit: first.limit }),
  };
  results.push(comparison);
  print(comparison);
  console.log(
    `  per process: ${figures.map((figure) => `${figure.ratio.toFixed(3)}×`).join(', ')}`,
  );
  return comparison;
}
