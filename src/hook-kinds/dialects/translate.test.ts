import { describe, expect, it } from 'vitest';
import { dialectEvent } from './dialect.ts';
import { foreignPayload } from './translate.ts';

const STOP = {
  agent_id: 'agent-1',
  agent_type: 'Explore',
  stop_hook_active: false,
  result: 'Found 3 issues.',
  agent_transcript_path: '/s.agents/agent-1.jsonl',
};

describe('foreignPayload', () => {
  it("adds Claude Code's and Codex's names beside hookwire's at Stop, SubagentStop and PostCompact", () => {
    for (const dialect of ['claude', 'codex'] as const) {
      expect(
        foreignPayload(dialect, 'Stop', {
          stop_hook_active: false,
          prompt: 'tidy up',
          prompt_response: 'Done: 2 files removed.',
        }),
      ).toMatchObject({
        prompt_response: 'Done: 2 files removed.',
        last_assistant_message: 'Done: 2 files removed.',
      });
      expect(foreignPayload(dialect, 'SubagentStop', STOP)).toEqual({
        ...STOP,
        last_assistant_message: 'Found 3 issues.',
      });
      expect(
        foreignPayload(dialect, 'PostCompact', {
          trigger: 'auto',
          summary: 'the summary',
          tokens_before: 9000,
          tokens_after: 800,
        }),
      ).toMatchObject({ compact_summary: 'the summary', summary: 'the summary' });
    }
  });

  it("adds Kimi Code's agent_name, response and estimated_token_count", () => {
    expect(
      foreignPayload('kimi', 'SubagentStart', {
        agent_id: 'agent-1',
        agent_type: 'coder',
        prompt: 'p',
        description: 'd',
      }),
    ).toMatchObject({ agent_type: 'coder', agent_name: 'coder' });
    expect(foreignPayload('kimi', 'SubagentStop', STOP)).toMatchObject({
      agent_name: 'Explore',
      response: 'Found 3 issues.',
    });
    expect(
      foreignPayload('kimi', 'PostCompact', {
        trigger: 'manual',
        summary: 's',
        tokens_before: 10,
        tokens_after: 4,
      }),
    ).toMatchObject({ estimated_token_count: 4 });
  });

  it('leaves events without extras alone, and still renames tools', () => {
    expect(foreignPayload('gemini', 'SubagentStop', STOP)).toBe(STOP);
    expect(
      foreignPayload('claude', 'PreToolUse', {
        tool_name: 'read_file',
        tool_input: { path: 'a.txt' },
      }),
    ).toEqual({ tool_name: 'Read', tool_input: { file_path: 'a.txt' } });
  });
});

describe('dialect events', () => {
  it('maps the subagent and compaction events of Claude Code, Codex and Kimi Code; Gemini CLI has none', () => {
    for (const dialect of ['claude', 'codex', 'kimi'] as const)
      for (const name of ['SubagentStart', 'SubagentStop', 'PostCompact'])
        expect(dialectEvent(dialect, name)).toBe(name);
    expect(dialectEvent('gemini', 'SubagentStop')).toBeUndefined();
    expect(dialectEvent('claude', 'TeammateIdle')).toBeUndefined();
  });
});
