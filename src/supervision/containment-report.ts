import { canScanProcesses } from './containment.ts';
import { NATIVE_HELPER_PATH, resolveHelperKind } from './helper-runner.ts';
import { reaperInForce } from './reaper.ts';

/**
 * Which process containment is in force on this machine, as `hookwire doctor` reports it.
 * See docs/decisions/0008-process-containment.md for what each level guarantees.
 */
export interface ContainmentReport {
  /** The spawn helper command hooks and the shell tool use. */
  readonly spawnHelper: 'native' | 'node';
  /** Path of the native helper when it is the one in use. */
  readonly nativeHelperPath?: string;
  /**
   * `tag-and-ancestry`: processes that leave the hook's group are found through /proc by their
   * `HOOKWIRE_HOOK_RUN` tag and their parent chain; `process-group`: only the hook's process
   * group is killed (no /proc: not Linux).
   */
  readonly escapees: 'tag-and-ancestry' | 'process-group';
  /** The helper runs in its own session and cleans up when hookwire dies (always true). */
  readonly survivesHookwireDeath: true;
  /** The native helper is a child subreaper: orphaned hook processes are reparented to it. */
  readonly subreaper: boolean;
  /**
   * The reaper (native helper's `--reaper` mode, a child subreaper that is not their parent) is
   * above every process hookwire starts: the spawn helper, process hooks, stdio MCP servers.
   * Off without the native helper, off Linux, or with `HOOKWIRE_REAPER=off`.
   */
  readonly reaper: boolean;
  /** The kinds of process started under the reaper (empty when it is off). */
  readonly reaped: readonly string[];
  /** One line per guarantee, for people. */
  readonly guarantees: readonly string[];
}

/** Describes the containment a `createCommandRunner()` made now would give. */
export function describeContainment(): ContainmentReport {
  const spawnHelper = resolveHelperKind();
  const escapees = canScanProcesses ? 'tag-and-ancestry' : 'process-group';
  const subreaper = spawnHelper === 'native' && process.platform === 'linux';
  const reaper = reaperInForce();
  const left =
    escapees === 'tag-and-ancestry'
      ? 'including processes that leave it (setsid, double fork) and keep HOOKWIRE_HOOK_RUN in their environment or a live parent among the hook processes'
      : 'only processes that stay in its process group (no /proc here)';
  return {
    spawnHelper,
    ...(spawnHelper === 'native' ? { nativeHelperPath: NATIVE_HELPER_PATH } : {}),
    escapees,
    survivesHookwireDeath: true,
    subreaper,
    reaper,
    reaped: reaper
      ? ['spawn helper (command hooks, the shell tool)', 'process hooks', 'stdio MCP servers']
      : [],
    guarantees: [
      `at a hook's deadline or cancellation, its processes are killed (SIGTERM, SIGKILL after the grace), ${left}`,
      "after a hook exits cleanly, what is left in its process group is killed; what left the group lives until the runner closes (the session's end), then is killed",
      `when hookwire dies (SIGTERM, SIGKILL of its pid or of its whole process group) the ${spawnHelper} spawn helper, in its own session, sees its stdin end and kills every process the hooks started`,
      ...(subreaper
        ? [
            'hook processes orphaned while the helper runs are reparented to it (child subreaper) and reaped',
          ]
        : []),
      ...(reaper
        ? [
            'the spawn helper, each process hook and each stdio MCP server run under a reaper (a child subreaper that is not their parent): an orphan anywhere below it (its parent killed — the spawn helper included —, a double fork, setsid, a cleared environment) is held by the reaper and killed when its process ends, is stopped, or hookwire dies',
          ]
        : [
            'no reaper (not Linux, the native helper is not built, or HOOKWIRE_REAPER=off): a process that clears its environment and whose parent is killed or exits is not found',
          ]),
    ],
  };
}
