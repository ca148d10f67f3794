/**
 * The Claude Agent SDK bridge as a host. The SDK owns its agent loop; this driver plays that
 * loop's part as the bridge's own tests do: it calls the callbacks `toClaudeAgentHooks` returns
 * with inputs typed by the SDK's types, in Claude Code's order (UserPromptSubmit; per tool call
 * PreToolUse, PermissionRequest when the SDK's rules ask, the tool, PostToolUse or
 * PostToolUseFailure; Stop after a text answer), and applies each answer as the SDK documents it
 * (`continue: false` ends the run with `stopReason`, a PreToolUse `deny` answers the call with
 * its reason, `updatedInput` / `updatedToolOutput` / `additionalContext`, a Stop `block`
 * continues with the reason).
 */
import type {
  HookCallbackMatcher,
  HookInput,
  HookJSONOutput,
  SyncHookJSONOutput,
} from '@anthropic-ai/claude-agent-sdk';
import { createHookwire, toClaudeAgentHooks } from '../../../src/claude-agent-sdk.ts';
import type { HostOutcome, Scenario } from '../scenarios.ts';
import type { Project } from './shared.ts';

type Specific = Record<string, unknown> & {
  readonly permissionDecision?: string;
  readonly permissionDecisionReason?: string;
  readonly updatedInput?: unknown;
  readonly updatedToolOutput?: unknown;
  readonly additionalContext?: string;
  readonly decision?: { readonly behavior: string; readonly updatedInput?: unknown };
};

/** The answers of every callback for one input, merged as the SDK reads them. */
interface Answers {
  readonly stopReason: string | undefined;
  readonly block: string | undefined;
  readonly specific: Specific;
}

export async function runOnClaude(scenario: Scenario, project: Project): Promise<HostOutcome> {
  const log: string[] = [];
  const ran: unknown[] = [];
  const reports: string[] = [];
  const seen: string[][] = [];
  const hw = await createHookwire({
    cwd: project.dir,
    env: project.env,
    hooks: [scenario.hook(log)],
    onReport: (report) => reports.push(report.text),
    ...(scenario.stopContinuationsPerTurn === undefined
      ? {}
      : { stopContinuationsPerTurn: scenario.stopContinuationsPerTurn }),
  });
  const hooks = toClaudeAgentHooks(hw);
  const base = {
    session_id: 'claude-session',
    transcript_path: `${project.dir}/claude.jsonl`,
    cwd: project.dir,
  };
  const fire = async (input: HookInput, toolUseId?: string): Promise<Answers> => {
    const matchers: HookCallbackMatcher[] = hooks[input.hook_event_name] ?? [];
    const outputs: HookJSONOutput[] = [];
    for (const matcher of matchers)
      for (const callback of matcher.hooks)
        outputs.push(await callback(input, toolUseId, { signal: new AbortController().signal }));
    let stopReason: string | undefined;
    let block: string | undefined;
    let specific: Specific = {};
    for (const output of outputs as SyncHookJSONOutput[]) {
      if (output.continue === false) stopReason ??= output.stopReason ?? '';
      if (output.decision === 'block') block ??= output.reason ?? '';
      if (output.hookSpecificOutput !== undefined)
        specific = { ...specific, ...(output.hookSpecificOutput as Specific) };
    }
    return { stopReason, block, specific };
  };

  let end: HostOutcome['end'] | undefined;
  try {
    const prompt = await fire({
      ...base,
      hook_event_name: 'UserPromptSubmit',
      prompt: 'Do the task',
    });
    if (prompt.stopReason !== undefined) end = { status: 'stopped', reason: prompt.stopReason };
    else if (prompt.block !== undefined) end = { status: 'stopped', reason: prompt.block };
    const context = prompt.specific.additionalContext;
    let pending = [`user: Do the task${context === undefined ? '' : ` ${context}`}`];
    let stopActive = false;
    for (const answer of scenario.script) {
      if (end !== undefined) break;
      seen.push(pending);
      pending = [];
      if (!('call' in answer)) {
        const stop = await fire({
          ...base,
          hook_event_name: 'Stop',
          stop_hook_active: stopActive,
          last_assistant_message: answer.text,
        });
        if (stop.stopReason !== undefined) end = { status: 'stopped', reason: stop.stopReason };
        else if (stop.block !== undefined) {
          pending = [`user: ${stop.block}`];
          stopActive = true;
        } else end = { status: 'completed' };
        continue;
      }
      const { id, name } = answer.call;
      let args: unknown = answer.call.args;
      const pre = await fire(
        {
          ...base,
          hook_event_name: 'PreToolUse',
          tool_name: name,
          tool_input: args,
          tool_use_id: id,
        },
        id,
      );
      if (pre.specific.permissionDecision === 'deny') {
        pending.push(`tool ${name} error: ${pre.specific.permissionDecisionReason ?? ''}`);
        if (pre.stopReason !== undefined) end = { status: 'stopped', reason: pre.stopReason };
        continue;
      }
      if (pre.specific.updatedInput !== undefined) args = pre.specific.updatedInput;
      if (scenario.ask?.includes(name) === true) {
        const permission = await fire(
          {
            ...base,
            hook_event_name: 'PermissionRequest',
            tool_name: name,
            tool_input: args,
            permission_mode: 'default',
          },
          id,
        );
        const decision = permission.specific.decision;
        if (decision?.behavior === 'deny') {
          pending.push(`tool ${name} error: denied`);
          continue;
        }
        if (decision?.updatedInput !== undefined) args = decision.updatedInput;
      }
      ran.push(args);
      if (name === 'explode') {
        const failure = await fire({
          ...base,
          hook_event_name: 'PostToolUseFailure',
          tool_name: name,
          tool_input: args,
          tool_use_id: id,
          error: 'the disk is on fire',
        });
        pending.push(`tool ${name} error: the disk is on fire`);
        if (failure.specific.additionalContext !== undefined)
          pending.push(`  + ${failure.specific.additionalContext}`);
        if (failure.stopReason !== undefined)
          end = { status: 'stopped', reason: failure.stopReason };
        continue;
      }
      const post = await fire({
        ...base,
        hook_event_name: 'PostToolUse',
        tool_name: name,
        tool_input: args,
        tool_response: args,
        tool_use_id: id,
      });
      const shown = post.specific.updatedToolOutput ?? args;
      pending.push(`tool ${name}: ${JSON.stringify(shown)}`);
      if (post.specific.additionalContext !== undefined)
        pending.push(`  + ${post.specific.additionalContext}`);
      if (post.stopReason !== undefined) end = { status: 'stopped', reason: post.stopReason };
    }
  } finally {
    await hw.close();
  }
  return { log, seen, end: end ?? { status: 'incomplete' }, ran, reports };
}
