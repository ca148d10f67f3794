/**
 * The `AgentHook` contract suite: one set of cases, run against every implementation of the
 * interface (like hono's `runTest({newRouter})`). An implementation is a factory that turns a
 * declarative `ScriptedHookSpec` into an `AgentHook` behaving like it; the suite composes several
 * such hooks through a `HookStack` and asserts the composed outcome and the execution order (from
 * a real log file) identically for all implementations.
 *
 * Usage, in a test file: `describeAgentHookContract('plain object', (spec, log) => scriptedHook(spec, log))`.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  ContextAction,
  PromptSubmitAction,
  StopAction,
  ToolCallAction,
  ToolResultAction,
} from '../../events/index.ts';
import type { AgentHook } from '../agent-hook.ts';
import type { ToolCallEvent, ToolResultEvent } from '../../events/index.ts';
import { createHookContext } from '../hook-context.ts';
import { HookStack } from '../stack/hook-stack.ts';
import {
  ContractLog,
  type ContractEvent,
  type ScriptedHookSpec,
  type ScriptedResponse,
} from './scripted-hook.ts';

/** Builds a hook behaving like `spec`; it must append one `ContractLogEntry` to `log` per call. */
export type AgentHookFactory = (
  spec: ScriptedHookSpec,
  log: ContractLog,
) => AgentHook | Promise<AgentHook>;

/** The tool-call event every `PreToolUse` case dispatches. */
export const CONTRACT_TOOL_CALL: ToolCallEvent = {
  toolName: 'write_file',
  toolCallId: 'call-1',
  args: { path: 'notes.txt', content: 'draft' },
  originalArgs: { path: 'notes.txt', content: 'draft' },
};

/** The tool-result event every `PostToolUse` case dispatches. */
export const CONTRACT_TOOL_RESULT: ToolResultEvent = {
  toolName: 'read_file',
  toolCallId: 'call-2',
  args: { path: 'notes.txt' },
  presentation: 'raw file text',
  raw: { result: 'raw file text' },
  skipped: false,
};

/** Options of `describeAgentHookContract`. */
export interface AgentHookContractOptions {
  /**
   * The answers the implementation can give, when it cannot give them all (a prompt hook only
   * allows or denies). A case that needs another answer is reported as skipped, never passed.
   * Default: every answer.
   */
  readonly responses?: readonly ScriptedResponse['type'][];
  /**
   * The events the implementation can answer, when not all of them (an AHP backend intercepts
   * PreToolUse only; its observers answer nothing). A case on another event is reported as
   * skipped, never passed. Default: every event.
   */
  readonly events?: readonly ContractEvent[];
}

/** Registers the contract cases for one implementation under `describe(name)`. */
export function describeAgentHookContract(
  name: string,
  factory: AgentHookFactory,
  options: AgentHookContractOptions = {},
): void {
  describe(`AgentHook contract: ${name}`, () => {
    let directory = '';
    let log: ContractLog;
    let skip: (note: string) => never = () => {
      throw new Error('no current test');
    };

    beforeEach(async (testContext) => {
      skip = (note) => testContext.skip(note);
      directory = await mkdtemp(join(tmpdir(), 'hookwire-contract-'));
      log = new ContractLog(join(directory, 'log.jsonl'));
    });
    afterEach(async () => {
      await rm(directory, { recursive: true, force: true });
    });

    async function stackOf(
      event: ContractEvent,
      ...hooks: [string, ScriptedResponse][]
    ): Promise<HookStack> {
      const built: AgentHook[] = [];
      const supported = options.responses;
      if (options.events !== undefined && !options.events.includes(event))
        skip(`${name} cannot answer ${event}`);
      for (const [, respond] of hooks)
        if (supported !== undefined && !supported.includes(respond.type))
          skip(`${name} cannot answer ${respond.type}`);
      for (const [label, respond] of hooks)
        built.push(await factory({ label, event, respond }, log));
      return new HookStack(built);
    }
    const context = () => createHookContext({ agentName: 'contract' });

    it('consults every PreToolUse hook in registration order when all continue and runs the tool', async () => {
      const stack = await stackOf(
        'PreToolUse',
        ['a', { type: 'continue' }],
        ['b', { type: 'continue' }],
      );
      expect(await stack.resolveToolCall(context(), CONTRACT_TOOL_CALL)).toEqual({
        action: ToolCallAction.run(),
        args: CONTRACT_TOOL_CALL.args,
        rewritten: false,
      });
      expect(log.entries()).toEqual([
        { label: 'a', seen: CONTRACT_TOOL_CALL.args },
        { label: 'b', seen: CONTRACT_TOOL_CALL.args },
      ]);
    });

    it('chains PreToolUse argument rewrites: each hook sees the arguments rewritten before it, the last wins', async () => {
      const stack = await stackOf(
        'PreToolUse',
        ['a', { type: 'rewriteArgs', args: { path: 'a.txt' } }],
        ['b', { type: 'rewriteArgs', args: { path: 'b.txt' } }],
        ['c', { type: 'continue' }],
      );
      expect(await stack.resolveToolCall(context(), CONTRACT_TOOL_CALL)).toEqual({
        action: ToolCallAction.rewrite({ path: 'b.txt' }),
        args: { path: 'b.txt' },
        rewritten: true,
      });
      expect(log.entries()).toEqual([
        { label: 'a', seen: CONTRACT_TOOL_CALL.args },
        { label: 'b', seen: { path: 'a.txt' } },
        { label: 'c', seen: { path: 'b.txt' } },
      ]);
    });

    it('short-circuits PreToolUse at the first deny and keeps the earlier rewrite', async () => {
      const stack = await stackOf(
        'PreToolUse',
        ['a', { type: 'rewriteArgs', args: { path: 'safe.txt' } }],
        ['b', { type: 'deny', reason: 'writes are reviewed' }],
        ['c', { type: 'rewriteArgs', args: { path: 'never.txt' } }],
      );
      const resolution = await stack.resolveToolCall(context(), CONTRACT_TOOL_CALL);
      expect(resolution.action.kind).toBe('skip');
      expect(resolution.action).toMatchObject({ reason: 'writes are reviewed' });
      expect(resolution.args).toEqual({ path: 'safe.txt' });
      expect(log.labels()).toEqual(['a', 'b']);
    });

    it('short-circuits PreToolUse at the first stop and keeps the earlier rewrite', async () => {
      const stack = await stackOf(
        'PreToolUse',
        ['a', { type: 'rewriteArgs', args: { path: 'safe.txt' } }],
        ['b', { type: 'stop', reason: 'budget spent' }],
        ['c', { type: 'continue' }],
      );
      const resolution = await stack.resolveToolCall(context(), CONTRACT_TOOL_CALL);
      expect(resolution.action).toMatchObject({ kind: 'stop', reason: 'budget spent' });
      expect(resolution.args).toEqual({ path: 'safe.txt' });
      expect(log.labels()).toEqual(['a', 'b']);
    });

    it('chains PostToolUse presentation rewrites and joins added context in order', async () => {
      const stack = await stackOf(
        'PostToolUse',
        ['a', { type: 'rewriteResult', presentation: 'redacted' }],
        ['b', { type: 'addContext', context: 'first note' }],
        ['c', { type: 'addContext', context: 'second note' }],
      );
      expect(await stack.onToolResult(context(), CONTRACT_TOOL_RESULT)).toEqual(
        ToolResultAction.rewrite('redacted', 'first note\nsecond note'),
      );
      expect(log.entries()).toEqual([
        { label: 'a', seen: 'raw file text' },
        { label: 'b', seen: 'redacted' },
        { label: 'c', seen: 'redacted' },
      ]);
    });

    it('short-circuits PostToolUse at the first stop, discarding rewrites and context', async () => {
      const stack = await stackOf(
        'PostToolUse',
        ['a', { type: 'addContext', context: 'note' }],
        ['b', { type: 'stop', reason: 'secret found' }],
        ['c', { type: 'rewriteResult', presentation: 'never' }],
      );
      expect(await stack.onToolResult(context(), CONTRACT_TOOL_RESULT)).toEqual(
        ToolResultAction.stop('secret found'),
      );
      expect(log.labels()).toEqual(['a', 'b']);
    });

    it('joins UserPromptSubmit contexts in registration order', async () => {
      const stack = await stackOf(
        'UserPromptSubmit',
        ['a', { type: 'addContext', context: 'branch: main' }],
        ['b', { type: 'continue' }],
        ['c', { type: 'addContext', context: 'tests: green' }],
      );
      expect(await stack.onPromptSubmit(context(), { prompt: 'fix it' })).toEqual(
        PromptSubmitAction.continue('branch: main\ntests: green'),
      );
      expect(log.labels()).toEqual(['a', 'b', 'c']);
    });

    it('short-circuits UserPromptSubmit at the first deny', async () => {
      const stack = await stackOf(
        'UserPromptSubmit',
        ['a', { type: 'addContext', context: 'ignored' }],
        ['b', { type: 'deny', reason: 'prompt contains a secret' }],
        ['c', { type: 'stop', reason: 'never reached' }],
      );
      expect(await stack.onPromptSubmit(context(), { prompt: 'token=abc' })).toEqual(
        PromptSubmitAction.deny('prompt contains a secret'),
      );
      expect(log.labels()).toEqual(['a', 'b']);
    });

    it('joins Stop block reasons in order after consulting every hook', async () => {
      const stack = await stackOf(
        'Stop',
        ['a', { type: 'block', reason: 'run the tests' }],
        ['b', { type: 'continue' }],
        ['c', { type: 'block', reason: 'update the changelog' }],
      );
      const event = {
        stopHookActive: false,
        prompt: 'p',
        promptResponse: 'r',
        continuations: 0,
        continuationBudget: 1,
      };
      expect(await stack.onStop(context(), event)).toEqual(
        StopAction.block('run the tests\nupdate the changelog'),
      );
      expect(log.labels()).toEqual(['a', 'b', 'c']);
    });

    it('lets the first Stop stop win over blocks and short-circuit', async () => {
      const stack = await stackOf(
        'Stop',
        ['a', { type: 'block', reason: 'run the tests' }],
        ['b', { type: 'stop', reason: 'out of budget' }],
        ['c', { type: 'block', reason: 'never reached' }],
      );
      const event = {
        stopHookActive: true,
        prompt: 'p',
        promptResponse: 'r',
        continuations: 1,
        continuationBudget: 1,
      };
      expect(await stack.onStop(context(), event)).toEqual(StopAction.stop('out of budget'));
      expect(log.labels()).toEqual(['a', 'b']);
    });

    it('joins SessionStart contexts and short-circuits at the first stop', async () => {
      const joined = await stackOf(
        'SessionStart',
        ['a', { type: 'addContext', context: 'repo: hookwire' }],
        ['b', { type: 'addContext', context: 'user: ada' }],
      );
      expect(await joined.onSessionStart(context(), { source: 'startup' })).toEqual(
        ContextAction.continue('repo: hookwire\nuser: ada'),
      );
      const stopped = await stackOf(
        'SessionStart',
        ['c', { type: 'stop', reason: 'maintenance window' }],
        ['d', { type: 'addContext', context: 'never' }],
      );
      expect(await stopped.onSessionStart(context(), { source: 'resume' })).toEqual(
        ContextAction.stop('maintenance window'),
      );
      expect(log.labels()).toEqual(['a', 'b', 'c']);
    });
  });
}
