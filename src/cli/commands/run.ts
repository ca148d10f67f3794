import { builtinTools } from '../../adapters/tools/index.ts';
import type { LanguageModel } from '../../content/index.ts';
import type { McpTool } from '../../mcp/mcp-connections.ts';
import type { PermissionMode } from '../../hooks/permissions/index.ts';
import {
  addedDirectories,
  agentPermissions,
  hookProcessOptions,
  hookScriptFiles,
  hooksNeedSandbox,
  prepareShellRules,
  requireSandbox,
  withheldByRules,
} from '../tool-policy.ts';
import {
  AGENT_TOOL_NAME,
  createAgent,
  ToolRegistry,
  TranscriptWriteError,
  type RunResult,
  type Session,
} from '../../loop/index.ts';
import { CliError } from '../cli-error.ts';
import { HookFailureTally } from '../hook-failures.ts';
import { resolveModel } from '../model-spec.ts';
import { loadAgentTypes, readProjectAgentFiles } from '../agent-types.ts';
import { BUILTIN_TOOL_ARGUMENTS } from '../../hook-kinds/dialects/vocabulary.ts';
import { createRunOutput } from '../output/create-run-output.ts';
import type { OutputFormat } from '../output/run-output.ts';
import { otlpExportRequested, startOtlpExport, type OtlpExport } from '../otlp-export.ts';
import { packageVersion } from '../package-version.ts';
import { readStdin } from '../read-stdin.ts';
import { terminalApprover } from '../terminal-approver.ts';
import type { RecordingModel } from '../recording-model.ts';
import {
  commandTrust,
  openCommandHookSession,
  projectDirOf,
  printSettingsWarnings,
  untrustedNotice,
  type SettingsCommandOptions,
} from '../settings-options.ts';
import { readInstructionFiles } from '../project-instructions.ts';
import { composeSystemPrompt, localDate, readSystemPromptOption } from '../system-prompt.ts';

/** Options of `hookwire run` (as commander parses them). */
export interface RunCommandOptions extends SettingsCommandOptions {
  readonly model: string;
  /** `--mods-partial`: refused Claude Code mods are left out with a warning instead of stopping the run. */
  readonly modsPartial?: boolean;
  readonly baseUrl?: string;
  readonly maxModelCalls?: string;
  readonly maxInvalidToolCalls?: string;
  readonly resume?: string;
  /** `--restate URL`: submit the turn to the durable session object (see run-durable.ts). */
  readonly restate?: string;
  /** `--max-context-tokens N`: the compaction budget. */
  readonly maxContextTokens?: string;
  /** `--max-agent-depth N`: how deep subagents nest. */
  readonly maxAgentDepth?: string;
  readonly recordRequests?: string;
  /** `--record-payloads`: keep hook payloads and unreviewed tool results in the transcript. */
  readonly recordPayloads?: boolean;
  readonly outputFormat: OutputFormat;
  /** `on` (default): the streaming surface; `off`: the blocking one. */
  readonly streaming: 'on' | 'off';
  /** `--permission-mode`: overrides `permissions.defaultMode`. */
  readonly permissionMode?: PermissionMode;
  /** `--add-dir DIR`, repeatable: more directories for the file tools. */
  readonly addDir?: readonly string[];
  /** `--sandbox`: the shell tool runs under bubblewrap. */
  readonly sandbox?: boolean;
  /** `--sandbox-network`: sandboxed processes keep the network. */
  readonly sandboxNetwork?: boolean;
  /** `--otel` / `--no-otel`: export spans over OTLP/HTTP (default: when an endpoint variable is set). */
  readonly otel?: boolean;
  /** `--system-prompt TEXT|@FILE`: the main agent's base system prompt, instead of the default. */
  readonly systemPrompt?: string;
  /** `--append-system-prompt TEXT`: added after the base system prompt. */
  readonly appendSystemPrompt?: string;
  /** `--max-stop-continuations N`: how many times Stop hooks may keep one turn going. */
  readonly maxStopContinuations?: string;
  /** `--quiet`: no line on stderr per hook decision in the text output. */
  readonly quiet?: boolean;
}

/**
 * Adds the session's MCP tools after the built-in ones. A tool the registry refuses (a name two
 * tools share once made provider-safe, an input schema that does not compile) is left out with
 * one warning; the run goes on.
 */
function registerMcpTools(tools: ToolRegistry, mcpTools: readonly McpTool[]): void {
  for (const tool of mcpTools) {
    try {
      tools.register(tool);
    } catch (error) {
      process.stderr.write(
        `hookwire: MCP tool ${tool.declaration.name} (server "${tool.mcpContext.server_name}") is not available: ${error instanceof Error ? error.message : String(error)}\n`,
      );
    }
  }
}

/** Exit status of a cancelled run, as a shell reports a process ended by SIGINT. */
export const EXIT_CANCELLED = 130;

/**
 * The signals that cancel a run, each with the exit status a shell reports for a process it
 * ended: SIGINT (Ctrl-C) 130, SIGTERM (`kill`, a CI runner, `docker stop`) 143, SIGHUP (the
 * terminal went away) 129.
 */
export const CANCELLING_SIGNALS = { SIGINT: 130, SIGTERM: 143, SIGHUP: 129 } as const;

type CancellingSignal = keyof typeof CANCELLING_SIGNALS;

/** The exit status of a run: 0 completed, 130 cancelled, 1 otherwise (failed, stopped, budget). */
export function exitStatusOf(result: RunResult): number {
  if (result.status === 'completed') return 0;
  if (result.status === 'cancelled') return EXIT_CANCELLED;
  return 1;
}

function parseMaxModelCalls(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const count = Number(value);
  if (!/^\d+$/.test(value.trim()) || !Number.isSafeInteger(count) || count < 1) {
    throw new CliError(`--max-model-calls must be a positive whole number, got "${value}"`);
  }
  return count;
}

/** A whole number option (0 or more), or `undefined`. */
function parseWholeNumber(value: string | undefined, flag: string): number | undefined {
  if (value === undefined) return undefined;
  const count = Number(value);
  if (!/^\d+$/.test(value.trim()) || !Number.isSafeInteger(count)) {
    throw new CliError(`${flag} must be a whole number (0 or more), got "${value}"`);
  }
  return count;
}

/** A positive whole number option, or `undefined`. */
export function parsePositive(value: string | undefined, flag: string): number | undefined {
  if (value === undefined) return undefined;
  const count = Number(value);
  if (!/^\d+$/.test(value.trim()) || !Number.isSafeInteger(count) || count < 1)
    throw new CliError(`${flag} must be a positive whole number, got "${value}"`);
  return count;
}

async function readPrompt(argument: string | undefined): Promise<string> {
  if (argument !== undefined) {
    if (argument.trim() === '')
      throw new CliError('The prompt is empty: give the agent something to do.');
    return argument;
  }
  if (process.stdin.isTTY) {
    throw new CliError(
      'No prompt: pass it as an argument (hookwire run "PROMPT" …) or pipe it on stdin.',
    );
  }
  const text = (await readStdin()).replace(/\r?\n$/, '');
  if (text.trim() === '')
    throw new CliError(
      'The prompt read from stdin is empty: pipe the prompt text, or pass it as an argument.',
    );
  return text;
}

/**
 * `hookwire run [PROMPT]`: runs one agent session headless — the model of `--model`, the
 * built-in tools, and the command hooks of every settings layer plus `--settings`, all in the
 * project directory `--cwd`. Progress and outcome go out in the `--output-format`.
 *
 * SIGINT, SIGTERM and SIGHUP cancel the run alike (the loop fires Interrupt); the session is then
 * closed (SessionEnd within its budget, the transcript closed) and the status is 130, 143 or 129
 * (`CANCELLING_SIGNALS`, after the first signal received). A second one of them exits at once
 * with the first one's status. The session, the hook runner and the request recording are
 * always closed before returning. Returns the exit status (see
 * `exitStatusOf`); configuration errors (settings, model spec, prompt, resume id) throw.
 */
export async function runCommand(
  promptArgument: string | undefined,
  options: RunCommandOptions,
): Promise<number> {
  const maxModelCalls = parseMaxModelCalls(options.maxModelCalls);
  const invalidToolCallsPerTurn = parseWholeNumber(
    options.maxInvalidToolCalls,
    '--max-invalid-tool-calls',
  );
  const maxStopContinuations = parseWholeNumber(
    options.maxStopContinuations,
    '--max-stop-continuations',
  );
  const systemPromptOption =
    options.systemPrompt === undefined
      ? undefined
      : await readSystemPromptOption(options.systemPrompt, process.cwd());
  const maxContextTokens = parsePositive(options.maxContextTokens, '--max-context-tokens');
  const maxAgentDepth = parsePositive(options.maxAgentDepth, '--max-agent-depth');
  const projectDir = projectDirOf(options);
  const output = createRunOutput(options.outputFormat, { quiet: options.quiet === true });
  if (options.sandbox === true) await requireSandbox('--sandbox needs bubblewrap (bwrap)');
  // The settings load (and their errors surface) before the model spec and the prompt are read.
  // Prompt hooks judge with the run's model, which is resolved below.
  let modelResolved: (model: LanguageModel) => void = () => undefined;
  const runModel = new Promise<LanguageModel>((resolve) => {
    modelResolved = resolve;
  });
  const modelOptions = {
    invocationDir: process.cwd(),
    env: process.env,
    ...(options.baseUrl === undefined ? {} : { baseURL: options.baseUrl }),
  };
  // A failClosed guard that keeps failing is said once per hook at the end, with its count.
  const hookFailures = new HookFailureTally();
  const hookSession = await openCommandHookSession(options, {
    ...(options.modsPartial === true ? { modsPartial: true } : {}),
    ...(options.permissionMode === undefined ? {} : { permissionMode: options.permissionMode }),
    onHookRun: (record, verdict) => {
      hookFailures.add(record);
      output.hookRun(record, verdict);
    },
    promptModel: () => runModel,
    resolveModel: (spec) => resolveModel(spec, modelOptions),
    confinement: (settings) => hookProcessOptions(options, settings, projectDir),
    mcp: {
      onWarning: (line) => {
        process.stderr.write(`${line}\n`);
      },
      clientInfo: { name: 'hookwire', version: packageVersion() },
    },
  });
  const { settings } = hookSession;
  // The trust record was read once already to open the session; a failure now still closes it.
  const trust = await commandTrust(options).catch(async (error: unknown) => {
    await hookSession.close();
    throw error;
  });
  const instructionFiles = await readInstructionFiles({
    projectDir,
    env: process.env,
    ...(options.dialects === false ? { dialects: false } : {}),
    trust,
  });
  const projectAgentFiles = await readProjectAgentFiles(projectDir, {
    ...(options.dialects === false ? { dialects: false } : {}),
    trust,
  });
  const notice = untrustedNotice(settings, options, instructionFiles, projectAgentFiles);
  if (notice !== undefined) process.stderr.write(`${notice}\n`);
  printSettingsWarnings(settings);
  for (const warning of hookSession.modWarnings)
    process.stderr.write(`hookwire: warning: ${warning}\n`);
  if (options.sandbox !== true && hooksNeedSandbox(settings)) {
    await requireSandbox('a hook with "sandbox": true needs bubblewrap (bwrap)').catch(
      async (error: unknown) => {
        await hookSession.close();
        throw error;
      },
    );
  }
  const contextBudget = maxContextTokens ?? settings.maxContextTokens?.value;
  const additionalDirectories = addedDirectories(options, settings, projectDir);
  const permissions = agentPermissions(options, settings);
  prepareShellRules(permissions, settings);

  let recording: RecordingModel | undefined;
  let session: Session | undefined;
  let otlp: OtlpExport | undefined;
  const interruption = new AbortController();
  let received: CancellingSignal | undefined;
  const onSignal = (signal: CancellingSignal): void => {
    // A second signal means "now": the user does not want to wait for the closing hooks.
    if (received !== undefined) process.exit(CANCELLING_SIGNALS[received]);
    received = signal;
    interruption.abort(`interrupted by ${signal}`);
  };
  const handlers = (Object.keys(CANCELLING_SIGNALS) as CancellingSignal[]).map((signal) => {
    const handler = (): void => {
      onSignal(signal);
    };
    return [signal, handler] as const;
  });
  // At a terminal, an `ask` nobody's hook decides is put to the user (headless: refused); Ctrl-C
  // at the prompt cancels the run as SIGINT does.
  const approver = terminalApprover({
    onInterrupt: () => {
      onSignal('SIGINT');
    },
  });
  try {
    const modelOf = (spec: string) => resolveModel(spec, modelOptions);
    const baseModel = await modelOf(options.model);
    modelResolved(baseModel);
    const agentTypes = await loadAgentTypes(settings, projectDir, process.env, modelOf, {
      knownTools: [
        ...Object.keys(BUILTIN_TOOL_ARGUMENTS),
        ...hookSession.mcp.tools.map((tool) => tool.declaration.name),
      ],
      ...(options.dialects === false ? { dialects: false } : {}),
      projectFiles: projectAgentFiles,
    });
    for (const warning of agentTypes.warnings) process.stderr.write(`hookwire: ${warning}\n`);
    const prompt = await readPrompt(promptArgument);
    if (otlpExportRequested(options.otel, process.env))
      otlp = await startOtlpExport(packageVersion(), process.env);
    for (const [signal, handler] of handlers) process.on(signal, handler);
    recording =
      options.recordRequests === undefined
        ? undefined
        : (await import('../recording-model.ts')).recordRequests(baseModel, options.recordRequests);
    const { runner, stack: hooks } = hookSession;
    const tools = new ToolRegistry(
      builtinTools({
        additionalDirectories,
        ...withheldByRules(permissions),
        shell: {
          runner,
          environment: { pass: settings.passEnvironment },
          ...(hookSession.claudeEnvFile === undefined
            ? {}
            : { envFile: hookSession.claudeEnvFile }),
          ...(options.sandbox === true
            ? {
                sandbox: {
                  network: options.sandboxNetwork === true,
                  writableDirectories: additionalDirectories,
                  readOnlyFiles: hookScriptFiles(settings, projectDir),
                },
              }
            : {}),
        },
      }),
      // Built-in schemas are tested: each validator compiles when its tool is first called.
      { compile: 'first-use' },
    );
    registerMcpTools(tools, hookSession.mcp.tools);
    const stopContinuationsPerTurn = maxStopContinuations ?? settings.maxStopContinuations?.value;
    // The flag, else the setting, else (in composeSystemPrompt) the default prompt.
    const basePrompt = systemPromptOption ?? settings.systemPrompt?.value;
    const agent = createAgent({
      model: recording ?? baseModel,
      tools,
      systemInstruction: composeSystemPrompt({
        ...(basePrompt === undefined ? {} : { base: basePrompt }),
        ...(options.appendSystemPrompt === undefined ? {} : { append: options.appendSystemPrompt }),
        environment: {
          cwd: projectDir,
          platform: process.platform,
          arch: process.arch,
          date: localDate(),
          // createAgent adds the agent tool (subagents are always on here) after these.
          tools: [...tools.names(), AGENT_TOOL_NAME],
        },
        instructions: instructionFiles,
      }),
      ...(stopContinuationsPerTurn === undefined ? {} : { stopContinuationsPerTurn }),
      ...(permissions === undefined ? {} : { permissions }),
      ...(approver === undefined ? {} : { approver }),
      hooks,
      cwd: projectDir,
      ...(maxModelCalls === undefined ? {} : { maxModelCalls }),
      ...(invalidToolCallsPerTurn === undefined ? {} : { invalidToolCallsPerTurn }),
      ...(otlp === undefined ? {} : { tracer: otlp.tracer }),
      subagents: {
        types: agentTypes.types,
        ...(maxAgentDepth === undefined ? {} : { maxDepth: maxAgentDepth }),
      },
      // The flag, else the settings' budget, else (in the loop) the model's known window.
      ...(contextBudget === undefined ? {} : { maxContextTokens: contextBudget }),
      // SENSITIVE, off by default: the flag or the settings' recordPayloads.
      recordPayloads: options.recordPayloads === true || settings.recordPayloads,
    });
    session = await agent.openSession(
      options.resume === undefined ? {} : { sessionId: options.resume, resume: true },
    );
    const handle = session.run(prompt, {
      signal: interruption.signal,
      streaming: options.streaming === 'on',
    });
    for await (const event of handle) output.event(event);
    const result = await handle.result;
    await session.close('exit');
    for (const line of hookFailures.report()) process.stderr.write(`${line}\n`);
    output.finish(result, {
      mcpServerExits: hookSession.mcp.exits(),
      hookFailures: hookFailures.summaries(),
    });
    // The text output says it already; the others put it on stdout, and a transcript that could
    // not be written (disk full) is worth a line on stderr whatever reads stdout.
    if (options.outputFormat !== 'text' && result.error instanceof TranscriptWriteError)
      process.stderr.write(`hookwire: the run ended failed: ${result.error.message}\n`);
    return received === undefined ? exitStatusOf(result) : CANCELLING_SIGNALS[received];
  } finally {
    await session?.close('exit');
    await hookSession.close();
    recording?.close();
    for (const [signal, handler] of handlers) process.off(signal, handler);
    const warning = await otlp?.shutdown();
    if (warning !== undefined) process.stderr.write(`${warning}\n`);
  }
}
