import { Command, Option } from 'commander';
import type { HooksFireOptions } from './commands/hooks-fire.ts';
import type { HooksListOptions } from './commands/hooks-list.ts';
import type { HooksTrustOptions } from './commands/hooks-trust.ts';
import type { McpListOptions } from './commands/mcp-list.ts';
import type { HooksStatsOptions } from './commands/hooks-stats.ts';
import type { TraceCommandOptions } from './commands/trace.ts';
import type { RunCommandOptions } from './commands/run.ts';
import type { WorkerCommandOptions } from './commands/worker.ts';
import type { CompactCommandOptions } from './commands/compact.ts';
import type { DoctorOptions } from './commands/doctor.ts';
import { packageVersion } from './package-version.ts';
import { writeStdout } from './output/stdout.ts';
import { reportError } from './report-error.ts';
import { collectRepeated } from './collect-repeated.ts';
import { CliError } from './cli-error.ts';
import type { SettingsCommandOptions } from './settings-options.ts';
import type { HooksImportOptions } from './commands/hooks-import.ts';
import type { AhpServeOptions } from './commands/ahp-serve.ts';
import type { DaemonOptions, RelayHookOptions, RelayInstallOptions } from './commands/relay.ts';

const SETTINGS_HELP =
  'a settings file loaded after the managed, user, project and local layers (repeatable; relative to the working directory)';
const TRUST_PROJECT_HELP =
  "trust every hook and setting of the project's own settings files for this run (CI, containers); also HOOKWIRE_TRUST_PROJECT=1";
const CWD_HELP =
  'the project directory: its .hookwire/ settings load, and hooks and tools run there (default: the working directory)';

/**
 * Runs a command and records its exit status; errors are printed by `reportError`. Commands are
 * imported when they run, so `--version`, `--help` and `hooks …` never load the loop, the tools
 * or the provider SDKs.
 */
function action<Arguments extends unknown[]>(
  command: (...args: Arguments) => Promise<number>,
): (...args: Arguments) => Promise<void> {
  return async (...args: Arguments) => {
    try {
      process.exitCode = await command(...args);
    } catch (error) {
      process.exitCode = reportError(error);
    }
  };
}

function addSettingsOptions(command: Command): Command {
  return command
    .option('--settings <file>', SETTINGS_HELP, collectRepeated)
    .option('--cwd <dir>', CWD_HELP)
    .option('--no-dialects', NO_DIALECTS_HELP)
    .option('--plugin-dir <dir>', PLUGIN_DIR_HELP, collectRepeated);
}

const PLUGIN_DIR_HELP =
  'a Claude Code plugin directory to load (its hooks/hooks.json, agents/, .mcp.json; repeatable); one inside the project runs once trusted';

const NO_DIALECTS_HELP =
  "do not read the other tools' settings files (.claude/settings*.json, .gemini/settings.json, .codex/hooks.json, ~/.kimi-code/config.toml)";

/**
 * The `hookwire` command line: `run`, `hooks list`, `hooks validate`, `hooks fire`, `hooks stats`, `mcp list`,
 * `trace`, `--version`.
 * Each action sets `process.exitCode` (see each command for its statuses) rather than exiting, so
 * output is flushed and the session is closed before the process ends.
 */
function addRun(program: Command): void {
  program
    .command('run')
    .description('Run an agent on a prompt; command hooks from the settings layers steer it.')
    .argument('[prompt]', 'the prompt (read from stdin when absent)')
    .option(
      '--model <spec>',
      'PROVIDER:MODEL — scripted:FILE, openai:MODEL, openai-responses:MODEL, openai-compatible:MODEL, anthropic:MODEL, google:MODEL',
    )
    .option(
      '--base-url <url>',
      'send model requests to this server or gateway instead of the provider default',
    )
    .option('--settings <file>', SETTINGS_HELP, collectRepeated)
    .option('--cwd <dir>', CWD_HELP)
    .option('--trust-project', TRUST_PROJECT_HELP)
    .option('--no-dialects', NO_DIALECTS_HELP)
    .option('--plugin-dir <dir>', PLUGIN_DIR_HELP, collectRepeated)
    .option(
      '--mods-partial',
      'load the Claude Code mods hookwire can serve and leave out (with a warning each) those that need an event or capability it lacks, instead of refusing to start',
    )
    .addOption(
      new Option(
        '--permission-mode <mode>',
        'how tool calls no rule decides are treated (as in Claude Code): default (reads run, edits and commands need an allow rule or a PermissionRequest hook), acceptEdits (edits and mkdir/touch/mv/cp run too), plan (no edits), bypassPermissions (everything not denied or asked runs); default: permissions.defaultMode, else default',
      ).choices(['default', 'acceptEdits', 'plan', 'bypassPermissions']),
    )
    .option(
      '--add-dir <dir>',
      'a directory the file tools (and a sandboxed shell) may use besides the project directory (repeatable)',
      collectRepeated,
    )
    .option(
      '--sandbox',
      'run the shell tool under bubblewrap (bwrap): the project and --add-dir directories writable, the rest read-only, a private /tmp, no network',
    )
    .option(
      '--sandbox-network',
      'keep the network inside the sandbox (with --sandbox, and for hooks with "sandbox": true)',
    )
    .option(
      '--max-model-calls <n>',
      'model calls allowed in the run, retries and Stop continuations included (default 50)',
    )
    .option(
      '--max-invalid-tool-calls <n>',
      'invalid tool calls per turn (unknown tool, arguments not matching the schema) answered with the error so the model can correct itself; past it the run fails (default 5; 0 fails on the first)',
    )
    .option(
      '--resume <id>',
      'continue the session with this id (SessionStart fires with source "resume")',
    )
    .option(
      '--max-context-tokens <n>',
      "compact the history (PreCompact, a summary of the older turns, PostCompact) when the next request would exceed this many tokens (default: the model's known window, else off)",
    )
    .option(
      '--system-prompt <text>',
      "the main agent's system prompt instead of the default one: the text, or @FILE to read it from a file (default: the systemPrompt setting, else hookwire's prompt saying what the agent is, where it runs and its tools); instruction files still follow it",
    )
    .option(
      '--append-system-prompt <text>',
      'text added after the system prompt (before the instruction files AGENTS.md, CLAUDE.md, GEMINI.md)',
    )
    .option(
      '--max-stop-continuations <n>',
      'how many times Stop (and SubagentStop) hooks may keep one turn going by blocking (default: the maxStopContinuations setting, else the loop default); 0 lets no block continue',
    )
    .option(
      '--quiet',
      'text output: no line on stderr per hook decision (denial, stop, failed-closed guard, Stop continuation); warnings still print',
    )
    .option(
      '--max-agent-depth <n>',
      'how deep subagents of the agent tool may nest (default 1: subagents have no agent tool)',
    )
    .option(
      '--record-requests <file>',
      'append every request the model receives (after hooks) as a v2 request envelope, one JSON line each',
    )
    .option(
      '--record-payloads',
      "SENSITIVE: keep each hook's payload and the tool results before PostToolUse hooks reviewed them in the session transcript (they may hold what a redacting hook removed); default: neither is written (settings: recordPayloads)",
    )
    .addOption(
      new Option(
        '--output-format <format>',
        'text: the final answer on stdout; json: one result object; stream-json: one JSON line per event, then the result',
      )
        .choices(['text', 'json', 'stream-json'])
        .default('text'),
    )
    .addOption(
      new Option(
        '--streaming <mode>',
        'drive the streaming (on) or the blocking (off) model surface; the lifecycle is the same',
      )
        .choices(['on', 'off'])
        .default('on'),
    )
    .option(
      '--otel',
      "export the run's spans over OTLP/HTTP, configured by the OTEL_EXPORTER_OTLP_* variables (default: on when OTEL_EXPORTER_OTLP_ENDPOINT or OTEL_EXPORTER_OTLP_TRACES_ENDPOINT is set)",
    )
    .option('--no-otel', 'do not export spans, whatever the OTEL_* variables say')
    .addHelpText(
      'after',
      '\nExit status: 0 completed; 1 failed, stopped, budget exhausted, or a configuration error; 130 cancelled (143 by SIGTERM, 129 by SIGHUP).\nCtrl-C cancels the current turn (Interrupt hooks fire) and exits 130 once the session is closed; a second Ctrl-C exits at once. SIGTERM and SIGHUP cancel the same way.',
    )
    .option(
      '--restate <url>',
      "submit the turn to the durable session object hookwire-session through Restate's ingress at this URL (served by hookwire worker); with --resume, continue that durable session",
    )
    .action(
      action(
        async (
          prompt: string | undefined,
          options: Omit<RunCommandOptions, 'model'> & { readonly model?: string },
        ) => {
          if (options.restate !== undefined) {
            const { runDurableCommand } = await import('./commands/run-durable.ts');
            return runDurableCommand(prompt, { ...options, restate: options.restate });
          }
          // Required, except for a durable turn (the worker has the model).
          if (options.model === undefined)
            throw new CliError("required option '--model <spec>' not specified");
          const { runCommand } = await import('./commands/run.ts');
          return runCommand(prompt, { ...options, model: options.model });
        },
      ),
    );
}

function addWorker(program: Command): void {
  program
    .command('worker')
    .description(
      "Serve the project's durable sessions (Restate virtual object hookwire-session) as a Restate deployment.",
    )
    .requiredOption('--model <spec>', 'PROVIDER:MODEL, as for run')
    .option('--base-url <url>', 'send model requests to this server or gateway')
    .option(
      '--restate-admin <url>',
      "register the deployment with Restate's admin API at this URL (else print the command)",
    )
    .option('--port <port>', 'the HTTP/2 port to serve on, on 127.0.0.1 (default 9080; 0: any)')
    .option(
      '--endpoint-url <url>',
      'the URL Restate reaches the workers at, e.g. a balancer in front of several (default: this worker)',
    )
    .option('--settings <file>', SETTINGS_HELP, collectRepeated)
    .option('--cwd <dir>', CWD_HELP)
    .option('--trust-project', TRUST_PROJECT_HELP)
    .option('--no-dialects', NO_DIALECTS_HELP)
    .option('--max-model-calls <n>', 'model calls allowed per turn (default 50)')
    .option('--max-stop-continuations <n>', 'Stop continuations per turn')
    .action(
      action(async (options: WorkerCommandOptions) => {
        const { workerCommand } = await import('./commands/worker.ts');
        return workerCommand(options);
      }),
    );
}

function addHooks(program: Command): void {
  const hooks = program
    .command('hooks')
    .description('Inspect, validate and fire the command hooks of the settings layers.');

  addSettingsOptions(
    hooks
      .command('list')
      .description(
        'List the effective hooks and the layer each came from (ignored hooks show why).',
      ),
  )
    .option('--json', 'print the rows as a JSON array')
    .action(
      action(async (options: HooksListOptions) => {
        const { hooksListCommand } = await import('./commands/hooks-list.ts');
        return hooksListCommand(options);
      }),
    );

  addSettingsOptions(
    hooks
      .command('validate')
      .description(
        'Check every settings layer: exit 0 with a summary, or exit 1 printing every problem to stderr.',
      ),
  ).action(
    action(async (options: SettingsCommandOptions) => {
      const { hooksValidateCommand } = await import('./commands/hooks-validate.ts');
      return hooksValidateCommand(options);
    }),
  );

  addSettingsOptions(
    hooks
      .command('fire')
      .description(
        'Run the hooks matching EVENT on a payload exactly as the loop would, and print the combined outcome as one JSON object.',
      )
      .argument(
        '<event>',
        'the event name (canonical, e.g. PreToolUse, or an alias, e.g. BeforeTool)',
      ),
  )
    .option(
      '--input <file>',
      'the payload: a JSON file, or - for stdin (default: stdin when it is not a terminal, else {})',
    )
    .option('--trust-project', TRUST_PROJECT_HELP)
    .addHelpText(
      'after',
      '\nBase fields the payload lacks (session_id, transcript_path, cwd, hook_event_name, timestamp, and tool_call_id for a tool event) are filled in.\nExit status: 0 whatever the decision; 1 for a configuration or input error.',
    )
    .action(
      action(async (event: string, options: HooksFireOptions) => {
        const { hooksFireCommand } = await import('./commands/hooks-fire.ts');
        return hooksFireCommand(event, options);
      }),
    );

  hooks
    .command('trust')
    .description(
      "Show the project's hooks (and loosening settings) that are not trusted, and trust them: they run from then on, until they change.",
    )
    .option('--cwd <dir>', CWD_HELP)
    .option('--settings <file>', SETTINGS_HELP, collectRepeated)
    .option('--no-dialects', NO_DIALECTS_HELP)
    .option('--plugin-dir <dir>', PLUGIN_DIR_HELP, collectRepeated)
    .option('--yes', 'trust without asking (for scripts)')
    .addHelpText(
      'after',
      "\nHooks in settings files inside the project (a cloned repository is untrusted input) run only once trusted.\nTrust is recorded in ~/.hookwire/trusted-hooks.json by the project's real path and a SHA-256 of each hook's definition: any change untrusts it.",
    )
    .action(
      action(async (options: HooksTrustOptions) => {
        const { hooksTrustCommand } = await import('./commands/hooks-trust.ts');
        return hooksTrustCommand(options);
      }),
    );

  hooks
    .command('import')
    .description(
      "Convert another tool's hooks (Claude Code, Gemini CLI, Codex, Kimi Code, Copilot CLI, Cursor, Windsurf, the Claude-shaped tools, a Claude Code plugin) to hookwire's own settings, saying what could not be carried.",
    )
    .requiredOption(
      '--from <tool>',
      'claude, gemini, codex, kimi, copilot, cursor, windsurf, factory, augment, codebuddy, qwen or claude-plugin; or ahp (with --file)',
    )
    .option(
      '--file <registration>',
      'with --from ahp: the AHP registration document (JSON) to translate into ahp entries',
    )
    .option('--write <file>', 'write the settings to this new file instead of printing them')
    .option('--cwd <dir>', CWD_HELP)
    .option(
      '--plugin-dir <dir>',
      'with --from claude-plugin: the plugin directory to import (repeatable; default: the plugins hookwire finds for the project)',
      collectRepeated,
    )
    .action(
      action(async (options: HooksImportOptions) => {
        const { hooksImportCommand } = await import('./commands/hooks-import.ts');
        return hooksImportCommand(options);
      }),
    );

  hooks
    .command('untrust')
    .description('Forget every hook and setting trusted for the project.')
    .option('--cwd <dir>', CWD_HELP)
    .action(
      action(async (options: SettingsCommandOptions) => {
        const { hooksUntrustCommand } = await import('./commands/hooks-trust.ts');
        return hooksUntrustCommand(options);
      }),
    );

  hooks
    .command('stats')
    .description(
      'Per hook: runs, decisions, failures, timeouts and latency (median, p95, max) across past sessions.',
    )
    .argument('[session-id...]', "the sessions to read (default: the project's most recent ones)")
    .option('--last <n>', 'how many recent sessions to read when no id is given (default 20)')
    .option(
      '--cwd <dir>',
      'the project directory whose .hookwire/sessions are read (default: the working directory)',
    )
    .option('--json', 'print the report as one JSON object')
    .action(
      action(async (sessionIds: string[], options: HooksStatsOptions) => {
        const { hooksStatsCommand } = await import('./commands/hooks-stats.ts');
        return hooksStatsCommand(sessionIds, options);
      }),
    );
}

function addMcp(program: Command): void {
  const mcp = program
    .command('mcp')
    .description('Inspect the MCP servers of the settings layers and the project .mcp.json.');
  addSettingsOptions(
    mcp
      .command('list')
      .description(
        'Start the MCP servers as run would, list each with its state and its tools (mcp__SERVER__TOOL), then stop them.',
      ),
  )
    .option('--trust-project', TRUST_PROJECT_HELP)
    .option('--json', 'print the servers as a JSON array')
    .addHelpText(
      'after',
      '\nServers of files inside the project (.mcp.json, .hookwire/settings.json) start only once trusted (hookwire hooks trust).\nExit status: 0 when every enabled, trusted server connected; 1 when one failed or on a configuration error.',
    )
    .action(
      action(async (options: McpListOptions) => {
        const { mcpListCommand } = await import('./commands/mcp-list.ts');
        return mcpListCommand(options);
      }),
    );
}

function addDoctor(program: Command): void {
  program
    .command('doctor')
    .description(
      'Show the spawn helper in use (native or Node), the process containment in force on this machine, and the instruction files hookwire run sends for the project.',
    )
    .option('--json', 'print the report as one JSON object')
    .option(
      '--cwd <dir>',
      'the project whose instruction files (AGENTS.md, CLAUDE.md, GEMINI.md) are listed (default: the working directory)',
    )
    .option('--trust-project', TRUST_PROJECT_HELP)
    .option('--no-dialects', 'list only AGENTS.md files, as hookwire run --no-dialects reads them')
    .option('--plugin-dir <dir>', PLUGIN_DIR_HELP, collectRepeated)
    .action(
      action(async (options: DoctorOptions) => {
        const { doctorCommand } = await import('./commands/doctor.ts');
        return doctorCommand(options);
      }),
    );
}

function addTrace(program: Command): void {
  program
    .command('trace')
    .description(
      'Draw a past session as a timeline in one self-contained HTML file: turns, model calls, tool calls and every hook run, coloured by decision.',
    )
    .argument(
      '<session-id>',
      "the session to draw (its transcript in the project's .hookwire/sessions)",
    )
    .option(
      '--out <file>',
      'where to write the HTML (default: <session-id>.trace.html; - for stdout)',
    )
    .option(
      '--cwd <dir>',
      'the project directory whose .hookwire/sessions are read (default: the working directory)',
    )
    .action(
      action(async (sessionId: string, options: TraceCommandOptions) => {
        const { traceCommand } = await import('./commands/trace.ts');
        return traceCommand(sessionId, options);
      }),
    );
}

function addCompact(program: Command): void {
  program
    .command('compact')
    .description(
      'Compact a session now (PreCompact with trigger "manual", a summary of the older turns, PostCompact); --resume continues from it.',
    )
    .argument('<session-id>', "the session (its transcript in the project's .hookwire/sessions)")
    .requiredOption('--model <spec>', 'the model that writes the summary (as for run)')
    .option('--base-url <url>', 'send the request to this server or gateway')
    .option('--instructions <text>', 'what the summary should keep (PreCompact hooks may add more)')
    .option('--settings <file>', SETTINGS_HELP, collectRepeated)
    .option('--cwd <dir>', CWD_HELP)
    .option('--trust-project', TRUST_PROJECT_HELP)
    .action(
      action(async (sessionId: string, options: CompactCommandOptions) => {
        const { compactCommand } = await import('./commands/compact.ts');
        return compactCommand(sessionId, options);
      }),
    );
}

function addRelay(program: Command): void {
  const relay = program
    .command('relay')
    .description(
      "Run hookwire's hooks inside Claude Code, Gemini CLI, Codex, Copilot CLI and Cursor: relay entries in their settings hand each event to a per-project hookwire daemon.",
    );
  relay
    .command('hook')
    .description(
      "The Node relay client a relay entry runs: the tool's payload on stdin, its answer out.",
    )
    .requiredOption('--from <tool>', 'the calling tool: claude, gemini, codex, copilot or cursor')
    .option('--event <name>', 'the event, for a tool whose payloads do not name it (Copilot CLI)')
    .option(
      '--cwd <dir>',
      "the project (default: the tool's project variable, else the working directory)",
    )
    .action(
      action(async (options: RelayHookOptions) => {
        const { relayHookCommand } = await import('./commands/relay.ts');
        return relayHookCommand(options);
      }),
    );
  const scope = new Option('--scope <scope>', "project (the project's file) or user (your home's)")
    .choices(['project', 'user'])
    .default('project');
  relay
    .command('install')
    .description(
      "Write one relay entry per event into the tool's settings file, beside your hooks.",
    )
    .requiredOption('--into <tool>', 'claude, gemini, codex, copilot or cursor')
    .addOption(scope)
    .option('--events <list>', "only these events (comma-separated, in the tool's names)")
    .option('--dry-run', 'print the change as a diff and write nothing')
    .option('--cwd <dir>', CWD_HELP)
    .action(
      action(async (options: RelayInstallOptions) => {
        const { relayInstallCommand } = await import('./commands/relay.ts');
        return relayInstallCommand(options, false);
      }),
    );
  relay
    .command('uninstall')
    .description('Remove exactly the relay entries install wrote.')
    .requiredOption('--from <tool>', 'claude, gemini, codex, copilot or cursor')
    .addOption(scope)
    .option('--dry-run', 'print the change as a diff and write nothing')
    .option('--cwd <dir>', CWD_HELP)
    .action(
      action(async (options: RelayInstallOptions) => {
        const { relayInstallCommand } = await import('./commands/relay.ts');
        return relayInstallCommand(options, true);
      }),
    );
  relay
    .command('status')
    .description("Where the relay is installed, and whether the project's daemon runs.")
    .option('--cwd <dir>', CWD_HELP)
    .action(
      action(async (options: { cwd?: string }) => {
        const { relayStatusCommand } = await import('./commands/relay.ts');
        return relayStatusCommand(options);
      }),
    );
}

function addDaemon(program: Command): void {
  const daemon = program
    .command('daemon')
    .description(
      "The project's relay daemon: started by the first relayed event, stopped when idle.",
    );
  const idle = new Option(
    '--idle <duration>',
    'stop after this long without an event (default 30m)',
  );
  for (const [name, description] of [
    ['run', 'Run the daemon in the foreground (what start runs).'],
    ['start', 'Start the daemon unless it runs.'],
    ['status', 'Whether the daemon runs (exit 3 when not).'],
    ['stop', 'Stop the daemon.'],
  ] as const) {
    const command = daemon.command(name).description(description).option('--cwd <dir>', CWD_HELP);
    if (name === 'run' || name === 'start') command.addOption(idle);
    command.action(
      action(async (options: DaemonOptions) => {
        const commands = await import('./commands/relay.ts');
        const run = {
          run: commands.daemonRunCommand,
          start: commands.daemonStartCommand,
          status: commands.daemonStatusCommand,
          stop: commands.daemonStopCommand,
        }[name];
        return run(options);
      }),
    );
  }
}

function addAhp(program: Command): void {
  const ahp = program
    .command('ahp')
    .description('The Agent Hooks Protocol: hookwire as an AHP backend for any AHP harness.');
  addSettingsOptions(
    ahp
      .command('serve')
      .description(
        "Answer AHP hooks/intercept (tool.before) and hooks/observe messages with the project's hooks (any kind, any dialect), as hooks fire runs them.",
      ),
  )
    .option(
      '--http <host:port>',
      'serve loopback HTTP (one JSON-RPC message per POST) instead of NDJSON on stdin/stdout; port 0 picks a free one (printed on stderr)',
    )
    .option(
      '--token-env <VAR>',
      'with --http: require every POST to carry Authorization: Bearer <value of VAR> (401 with a JSON-RPC error otherwise)',
    )
    .option('--trust-project', TRUST_PROJECT_HELP)
    .addHelpText(
      'after',
      "\nstdout carries protocol messages only; diagnostics go to stderr. The project's hooks must all be trusted (hookwire hooks trust, or --trust-project).\nExit status: 0 when stdin ends (stdio) or on SIGINT/SIGTERM (HTTP); 1 for a configuration error or untrusted hooks.",
    )
    .action(
      action(async (options: AhpServeOptions) => {
        const { ahpServeCommand } = await import('./commands/ahp-serve.ts');
        return ahpServeCommand(options);
      }),
    );
}

/** The top-level commands in the order help lists them. */
const COMMANDS: readonly (readonly [string, (program: Command) => void])[] = [
  ['run', addRun],
  ['worker', addWorker],
  ['hooks', addHooks],
  ['ahp', addAhp],
  ['mcp', addMcp],
  ['doctor', addDoctor],
  ['trace', addTrace],
  ['compact', addCompact],
  ['relay', addRelay],
  ['daemon', addDaemon],
];

export function createProgram(argv: readonly string[] = process.argv): Command {
  const program = new Command('hookwire')
    .description(
      'The hook engine for LLM agents: run an agent headless, or inspect and fire its command hooks.',
    )
    .version(packageVersion(), '-V, --version', 'print the hookwire version')
    .showHelpAfterError('(run "hookwire help" or "hookwire <command> --help" for usage)')
    // Help and the version go out as every other output does (see output/stdout.ts).
    .configureOutput({ writeOut: writeStdout });

  // Only the command being run is built when the first argument names one (building every
  // command's options is a few milliseconds of each start); help, the version and anything
  // unknown (which commander answers with the closest name) get them all.
  const named = COMMANDS.find(([name]) => name === argv[2]);
  for (const [, add] of named === undefined ? COMMANDS : [named]) add(program);
  return program;
}
