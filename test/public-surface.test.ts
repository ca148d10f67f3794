import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import * as hookwire from '../src/index.ts';
import * as providers from '../src/providers.ts';
import * as testing from '../src/testing.ts';
import * as aiSdk from '../src/ai-sdk.ts';
import * as claudeAgentSdk from '../src/claude-agent-sdk.ts';
import * as internal from '../src/internal.ts';

/** The names an entry point exports as types only (`type Name` in its export lists), sorted. */
function typeExports(entry: string): string[] {
  const source = readFileSync(resolve(import.meta.dirname, '..', 'src', entry), 'utf8');
  return [...source.matchAll(/^\s+type (\w+)(?: as (\w+))?,$/gm)]
    .map((match) => match[2] ?? match[1] ?? '')
    .sort();
}

describe('the public surface', () => {
  it('hookwire exports exactly these runtime names', () => {
    expect(Object.keys(hookwire).sort()).toMatchInlineSnapshot(`
      [
        "AGENT_TOOL_NAME",
        "AgentTypeError",
        "CompletionCallAction",
        "ContextAction",
        "FINISH_REASONS",
        "FinishReasonMap",
        "GENERAL_PURPOSE_AGENT",
        "HOOK_EVENT_ALIASES",
        "HOOK_EVENT_NAMES",
        "HookError",
        "HookStack",
        "HookwireError",
        "InvalidToolCallAction",
        "LoopError",
        "ModelError",
        "ModelOutputAction",
        "ModelSelectionAction",
        "ModelTurnAction",
        "ObservationAction",
        "PermissionRequestAction",
        "PromptSubmitAction",
        "RunHookContext",
        "SPEAKERS",
        "Scratchpad",
        "Session",
        "SettingsError",
        "StopAction",
        "ToolCallAction",
        "ToolRegistry",
        "ToolResultAction",
        "ToolSelectionAction",
        "WireDecodeError",
        "applyRequestPatch",
        "builtinTools",
        "canonicalEventName",
        "createAgent",
        "createCommandHooks",
        "createCommandRunner",
        "createHookContext",
        "fireCommandHooks",
        "isFinishReason",
        "isTruncatedOutput",
        "listEffectiveHooks",
        "loadAgentFiles",
        "loadHookSettings",
        "loadSettings",
        "mergeRequestPatches",
        "message",
        "openHookSession",
        "parseAgentFile",
        "readTranscript",
        "reconcileFinishReason",
        "scratchpadKey",
        "text",
        "textOf",
        "toolCallsOf",
        "toolPairingProblems",
      ]
    `);
  });

  it('hookwire/internal exports exactly the wire codec: the decoders and merge rules the root leaves out', () => {
    expect(Object.keys(internal).sort()).toMatchInlineSnapshot(`
      [
        "aggregateToolChoice",
        "buildHookInput",
        "decodeHookLLMRequest",
        "decodeHookLLMRequestOverride",
        "decodeHookLLMResponse",
        "decodeHookOutput",
        "decodeToolChoice",
        "mergeHookLLMRequest",
        "mergeLLMRequestOverrides",
        "parseHookStdout",
        "toHookLLMRequest",
        "toHookLLMResponse",
      ]
    `);
    for (const name of Object.keys(internal)) expect(Object.keys(hookwire)).not.toContain(name);
  });

  it('hookwire exports exactly these type names', () => {
    expect(typeExports('index.ts')).toMatchInlineSnapshot(`
      [
        "Agent",
        "AgentHook",
        "AgentOptions",
        "AgentType",
        "AgentTypeDefinition",
        "ApprovalAnswer",
        "ApprovalRequest",
        "Awaitable",
        "BlockType",
        "CommandHookConfig",
        "CommandHookOptions",
        "CommandResult",
        "CommandRunner",
        "CompactOptions",
        "CompactionOutcome",
        "CompletionCallEvent",
        "CompletionResponseEvent",
        "ContentBlock",
        "EffectiveSettings",
        "FinishInfo",
        "FinishReason",
        "FireResult",
        "GenerationSettings",
        "HookContext",
        "HookContextOptions",
        "HookEventAlias",
        "HookEventKind",
        "HookEventName",
        "HookGroupConfig",
        "HookInput",
        "HookLLMRequest",
        "HookLLMRequestOverride",
        "HookLLMResponse",
        "HookOutput",
        "HookReport",
        "HookRunDecision",
        "HookRunRecord",
        "HookRunStatus",
        "HookSession",
        "HookSessionOptions",
        "HookSettingsOptions",
        "HookStackOptions",
        "HookStdout",
        "InterruptEvent",
        "InvalidToolCallEvent",
        "LanguageModel",
        "LoopSpan",
        "LoopSpanOptions",
        "LoopTracer",
        "McpContext",
        "MediaBlock",
        "Message",
        "ModelCallOptions",
        "ModelErrorKind",
        "ModelOutputEvent",
        "ModelRequest",
        "ModelResponse",
        "ModelSelectionEvent",
        "ModelStreamPart",
        "ModelTurnFinishedEvent",
        "NotificationEvent",
        "ObservedHookRun",
        "ObservedHookRunStatus",
        "OpenSessionOptions",
        "PermissionApprover",
        "PermissionRequestEvent",
        "PostCompactEvent",
        "PreCompactEvent",
        "PromptSubmitEvent",
        "ProviderMetadata",
        "ReasoningDeltaEvent",
        "ReasoningSettings",
        "RegisteredEventName",
        "RequestPatch",
        "RunCommandOptions",
        "RunEvent",
        "RunHandle",
        "RunOptions",
        "RunResult",
        "RunStatus",
        "ScratchpadKey",
        "SessionEndEvent",
        "SessionInfo",
        "SessionStartEvent",
        "SettingsIssue",
        "SpanAttributeValue",
        "SpanAttributes",
        "Speaker",
        "StopEvent",
        "StopFailureEvent",
        "StreamFinishEvent",
        "SubagentIdentity",
        "SubagentOptions",
        "SubagentStartEvent",
        "SubagentStopEvent",
        "TextBlock",
        "TextDeltaEvent",
        "ThinkingBlock",
        "Tool",
        "ToolCallAsk",
        "ToolCallBlock",
        "ToolCallDeltaEvent",
        "ToolCallEvent",
        "ToolCallResolution",
        "ToolChoice",
        "ToolDeclaration",
        "ToolExecutionContext",
        "ToolFailureEvent",
        "ToolResponseBlock",
        "ToolResultEvent",
        "ToolSelectionEvent",
        "TranscriptRecord",
        "Usage",
        "WireDecodeResult",
      ]
    `);
  });

  it('hookwire/providers exports exactly these runtime names', () => {
    expect(Object.keys(providers).sort()).toMatchInlineSnapshot(`
      [
        "MODEL_PROVIDERS",
        "ModelSpecError",
        "createAnthropicModel",
        "createGoogleModel",
        "createModelFromSpec",
        "createOpenAIChatModel",
        "createOpenAIResponsesModel",
      ]
    `);
  });

  it('hookwire/testing exports exactly these runtime names', () => {
    expect(Object.keys(testing).sort()).toMatchInlineSnapshot(`
      [
        "ScriptError",
        "createScriptedModel",
        "loadScriptedModel",
        "parseScript",
      ]
    `);
  });

  it('hookwire/ai-sdk exports exactly these runtime names', () => {
    expect(Object.keys(aiSdk).sort()).toMatchInlineSnapshot(`
      [
        "AI_SDK_METADATA",
        "HookDeniedError",
        "HookStoppedError",
        "ToolCallDeniedError",
        "createHookwire",
        "fromAiSdkCallOptions",
        "fromAiSdkContent",
        "fromAiSdkFinishReason",
        "fromAiSdkGenerateResult",
        "fromAiSdkPrompt",
        "fromAiSdkToolChoice",
        "fromAiSdkUsage",
        "fromModelMessages",
        "systemInstructionOf",
        "toAiSdkCallOptions",
        "toAiSdkContent",
        "toAiSdkFinishReason",
        "toAiSdkGenerateResult",
        "toAiSdkPrompt",
        "toAiSdkToolChoice",
        "toAiSdkUsage",
        "toToolResultOutput",
      ]
    `);
  });

  it('hookwire/claude-agent-sdk exports exactly these runtime names', () => {
    expect(Object.keys(claudeAgentSdk).sort()).toMatchInlineSnapshot(`
      [
        "CLAUDE_CODE_TOOLS",
        "createHookwire",
        "fromClaudeTool",
        "toClaudeAgentHooks",
        "toClaudeToolInput",
        "toClaudeToolName",
      ]
    `);
  });

  it('hookwire/claude-agent-sdk never loads the Claude Agent SDK at runtime (types only)', () => {
    const source = readFileSync(
      resolve(import.meta.dirname, '../src/adapters/claude-agent-sdk/to-claude-agent-hooks.ts'),
      'utf8',
    );
    expect(source).toMatch(/import type \{[^}]*\} from '@anthropic-ai\/claude-agent-sdk'/);
    expect(source).not.toMatch(/^import \{[^}]*\} from '@anthropic-ai\/claude-agent-sdk'/m);
  });

  it('hookwire/otel exports exactly these runtime names', async () => {
    const otel = await import('../src/otel.ts');
    expect(Object.keys(otel).sort()).toEqual(['OTEL_SCOPE_NAME', 'otelTracer']);
  });

  it('hookwire/testing/contract exports exactly these runtime names', async () => {
    const contract = await import('../src/testing-contract.ts');
    expect(Object.keys(contract).sort()).toEqual([
      'CONTRACT_TOOL_CALL',
      'CONTRACT_TOOL_RESULT',
      'ContractLog',
      'describeAgentHookContract',
      'scriptedHook',
    ]);
  });

  it('the package.json exports map points at the entries', () => {
    const manifest = JSON.parse(
      readFileSync(resolve(import.meta.dirname, '../package.json'), 'utf8'),
    ) as {
      exports: Record<string, unknown>;
    };
    expect(Object.keys(manifest.exports)).toEqual([
      '.',
      './testing',
      './testing/contract',
      './providers',
      './ai-sdk',
      './claude-agent-sdk',
      './internal',
      './otel',
      './restate',
      './package.json',
    ]);
  });

  it('importing hookwire never reaches a provider SDK, the CLI framework or OpenTelemetry', () => {
    // Walk the static import graph of src/index.ts: the engine must not load SDKs it does not use.
    const forbidden =
      /^(openai|@anthropic-ai\/sdk|@anthropic-ai\/claude-agent-sdk|@google\/genai|ai|@ai-sdk\/[^/]+|commander|@opentelemetry\/[^/]+|@restatedev\/[^/]+)(\/|$)/;
    const seen = new Set<string>();
    const reached: string[] = [];
    const visit = (file: string) => {
      if (seen.has(file)) return;
      seen.add(file);
      const source = readFileSync(file, 'utf8');
      for (const match of source.matchAll(
        /(?:^|\n)\s*(?:import|export)\s[^'"]*?from\s+['"]([^'"]+)['"]/g,
      )) {
        const specifier = match[1] ?? '';
        if (specifier.startsWith('.')) visit(resolve(dirname(file), specifier));
        else if (forbidden.test(specifier)) reached.push(`${file} imports ${specifier}`);
      }
    };
    visit(resolve(import.meta.dirname, '../src/index.ts'));
    expect(seen.size).toBeGreaterThan(50);
    expect(reached).toEqual([]);
  });
});
