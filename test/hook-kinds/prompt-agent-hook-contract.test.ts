/**
 * The `AgentHook` contract suite run against prompt hooks: every scripted hook becomes a prompt
 * hook whose judge (a scripted model) logs what the payload showed it and answers the verdict
 * meaning the same answer. A prompt hook can only allow (`ok: true`) or deny / block a Stop
 * (`ok: false`), so the cases that need a rewrite, added context or a stop are reported skipped.
 */
import { afterAll } from 'vitest';
import { appendFileSync } from 'node:fs';
import { createScriptedModel } from '../../src/adapters/testing/scripted-model.ts';
import { commandHookForGroup } from '../../src/hook-kinds/group/index.ts';
import { createDirectRunner } from '../../src/supervision/index.ts';
import { createPromptHookRunner } from '../../src/hook-kinds/prompt/index.ts';
import { describeAgentHookContract } from '../../src/hooks/testing/index.ts';
import { groupOf, kindStates, promptHook } from './support.ts';

const commands = createDirectRunner();
afterAll(async () => {
  await commands.close();
});

describeAgentHookContract(
  'prompt hook (a scripted judge per hook)',
  (spec, log) => {
    const seenField =
      spec.event === 'PreToolUse'
        ? 'tool_input'
        : spec.event === 'PostToolUse'
          ? 'tool_response'
          : undefined;
    const { respond } = spec;
    const verdict =
      respond.type === 'deny' || respond.type === 'block'
        ? { ok: false, reason: respond.reason }
        : { ok: true };
    const judge = createScriptedModel((request) => {
      const block = request.contents[0]?.blocks[0];
      const payload = JSON.parse(block?.type === 'text' ? block.text : 'null') as Record<
        string,
        unknown
      >;
      const seen = seenField === undefined ? null : payload[seenField];
      appendFileSync(log.path, `${JSON.stringify({ label: spec.label, seen })}\n`);
      return { blocks: [{ type: 'text', text: JSON.stringify(verdict) }], finishReason: 'stop' };
    });
    const group = groupOf(spec.event, [promptHook('$ARGUMENTS', { name: spec.label })]);
    return commandHookForGroup(group, {
      runner: commands,
      projectDir: '/tmp',
      kinds: kindStates({ prompt: createPromptHookRunner({ model: judge }) }),
    });
  },
  { responses: ['continue', 'deny', 'block'] },
);
