import { writeStdout } from '../output/stdout.ts';
import { describeContainment } from '../../supervision/containment-report.ts';
import { packageVersion } from '../package-version.ts';
import {
  INSTRUCTION_FILE_LIMIT_BYTES,
  readInstructionFiles,
  type InstructionFile,
} from '../project-instructions.ts';
import {
  commandTrust,
  loadCommandSettings,
  projectDirOf,
  type SettingsCommandOptions,
} from '../settings-options.ts';

/** A plugin directory as the report lists it. */
interface PluginReport {
  readonly name: string;
  readonly root: string;
  readonly origin: string;
  /** `loaded`, or `not loaded: …` (not trusted). */
  readonly state: string;
}

/**
 * The plugin directories `hookwire run` would load with the same options (`--plugin-dir`, the
 * `plugins` setting, installed plugins `enabledPlugins` turns on), or the reason they cannot be.
 */
async function pluginReport(
  options: DoctorOptions,
): Promise<{ plugins: PluginReport[]; error?: string }> {
  try {
    const settings = await loadCommandSettings(options);
    return {
      plugins: [
        ...settings.plugins.map((plugin) => ({
          name: plugin.name,
          root: plugin.root,
          origin: plugin.origin,
          state: 'loaded',
        })),
        ...settings.untrustedPlugins.map(({ plugin, reason }) => ({
          name: plugin.name,
          root: plugin.root,
          origin: plugin.origin,
          state: `not loaded: not trusted (${reason}; hookwire hooks trust)`,
        })),
      ],
    };
  } catch (error) {
    return { plugins: [], error: error instanceof Error ? error.message : String(error) };
  }
}

/** Options of `hookwire doctor`. */
export interface DoctorOptions extends SettingsCommandOptions {
  readonly json?: boolean;
}

/** An instruction file as the report lists it. */
interface InstructionReport {
  readonly path: string;
  readonly scope: InstructionFile['scope'];
  readonly bytes: number;
  /** `sent`, `sent, cut to N bytes`, or `not sent: not trusted (…)`. */
  readonly state: string;
}

function stateOf(file: InstructionFile): string {
  if (!file.trusted)
    return 'not sent: the project is not trusted (review it, then run "hookwire hooks trust")';
  return file.truncated
    ? `sent, cut to ${Math.min(file.bytes, INSTRUCTION_FILE_LIMIT_BYTES)} bytes at most`
    : 'sent';
}

/**
 * `hookwire doctor`: what this machine gives hookwire — versions, the spawn helper in use (native
 * or Node) and the process containment in force, with its guarantees — and the instruction files
 * (`AGENTS.md`, `CLAUDE.md`, `GEMINI.md`) `hookwire run` would send for the project `--cwd`,
 * with their sizes and whether they are sent. Always exits 0 (an unreadable trust record counts
 * every project file as not trusted).
 */
export async function doctorCommand(options: DoctorOptions): Promise<number> {
  const containment = describeContainment();
  const trust = await commandTrust(options).catch(() => ({
    trusted: new Set<string>(),
    trustAll: false,
  }));
  const files = await readInstructionFiles({
    projectDir: projectDirOf(options),
    env: process.env,
    ...(options.dialects === false ? { dialects: false } : {}),
    trust,
  });
  const instructions: InstructionReport[] = files.map((file) => ({
    path: file.path,
    scope: file.scope,
    bytes: file.bytes,
    state: stateOf(file),
  }));
  const plugins = await pluginReport(options);
  const report = {
    hookwire: packageVersion(),
    node: process.version,
    platform: `${process.platform}-${process.arch}`,
    containment,
    instructions,
    plugins: plugins.plugins,
    ...(plugins.error === undefined ? {} : { pluginsError: plugins.error }),
  };
  if (options.json === true) {
    writeStdout(JSON.stringify(report, null, 2) + '\n');
    return 0;
  }
  const lines = [
    `hookwire ${report.hookwire}, node ${report.node}, ${report.platform}`,
    `spawn helper: ${containment.spawnHelper}${containment.nativeHelperPath === undefined ? ' (the native helper is not built: no C compiler at install, or HOOKWIRE_SPAWN_HELPER=node)' : ` (${containment.nativeHelperPath})`}`,
    `containment: ${containment.escapees}${containment.subreaper ? ', subreaper' : ''}${containment.reaper ? ', reaper above every process' : ''}, helper outlives hookwire`,
    ...containment.guarantees.map((line) => `  - ${line}`),
    instructions.length === 0
      ? `instructions: none (AGENTS.md, CLAUDE.md, GEMINI.md in ${projectDirOf(options)} or ~/.hookwire/AGENTS.md, ~/.claude/CLAUDE.md, ~/.gemini/GEMINI.md)`
      : 'instructions (added to the system prompt of hookwire run):',
    ...instructions.map(
      (file) => `  - ${file.path} (${file.scope}, ${file.bytes} bytes): ${file.state}`,
    ),
    plugins.error !== undefined
      ? `plugins: cannot be loaded:\n${plugins.error}`
      : plugins.plugins.length === 0
        ? 'plugins: none (--plugin-dir, the plugins setting, or enabledPlugins of installed Claude Code plugins)'
        : 'plugins:',
    ...plugins.plugins.map(
      (plugin) => `  - ${plugin.name} (${plugin.origin}, ${plugin.root}): ${plugin.state}`,
    ),
  ];
  writeStdout(lines.join('\n') + '\n');
  return 0;
}
