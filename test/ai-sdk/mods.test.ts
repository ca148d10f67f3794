/**
 * Claude Code mods through `hookwire/ai-sdk`: the same plugin directory `hookwire run
 * --plugin-dir` loads, given as `pluginDirs`, guards and rewrites a hooked `generateText` on the
 * AI SDK's mock model. The mods' worker threads end with `hw.close()`.
 */
import { join } from 'node:path';
import { isStepCount } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { createHookwire } from '../../src/ai-sdk.ts';
import { writeMod } from '../cli/mods-support.ts';
import {
  readFileTool,
  textAnswer,
  toolCallAnswer,
  toolOutputsOf,
  useHookwireFixture,
} from './support.ts';

const fixture = useHookwireFixture(createHookwire);

const GUARD = `import type { Register } from 'claude-code'
export const register: Register = (on) => {
  on('tool.call', { tool: 'Read' }, async ($, e, next) => {
    if (String(e.file_path).endsWith('.env')) return { deny: 'env-guard: ' + e.file_path + ' is off limits' }
    const result = await next(e)
    return { ...result, result: { content: 'redacted by env-guard' }, context: ['env-guard redacted a read'] }
  })
}
`;

describe('Claude Code mods in hookwire/ai-sdk', () => {
  it('a mod guard denies a tool call in a hooked generateText; its result rewrite after next reaches the model', async () => {
    const mod = await writeMod({ root: fixture.project.dir }, 'env-guard', GUARD);
    // The plugin sits inside the project, so it loads once the project is trusted.
    const instance = await fixture.open({ pluginDirs: [mod], trustProject: true });
    const model = new MockLanguageModelV4({
      doGenerate: [
        toolCallAnswer('c1', 'read_file', { path: '.env' }),
        toolCallAnswer('c2', 'read_file', { path: 'notes.txt' }),
        textAnswer('done'),
      ],
    });
    const ran: unknown[] = [];
    const result = await instance.generateText({
      model,
      tools: { read_file: readFileTool(ran, (path) => `SECRET=hunter2 in ${path}`) },
      prompt: 'Read .env, then notes.txt',
      stopWhen: isStepCount(4),
    });

    expect(result.text).toBe('done');
    // The guard denied before next: execute never ran for .env.
    expect(ran).toEqual([{ path: 'notes.txt' }]);
    expect(toolOutputsOf(model.doGenerateCalls[1]!)).toEqual([
      {
        type: 'error-text',
        // e.file_path is absolute, as Claude Code's Read gives it.
        value: expect.stringContaining(
          `env-guard: ${join(fixture.project.dir, '.env')} is off limits`,
        ) as string,
      },
    ]);
    // After next, the mod's rewrite is what the model read, with its context; never the secret.
    const third = JSON.stringify(model.doGenerateCalls[2]?.prompt);
    expect(third).toContain('redacted by env-guard');
    expect(third).toContain('env-guard redacted a read');
    expect(third).not.toContain('hunter2');
  });
});
