/**
 * Hook warnings in the embeddings reach someone: an app using `hookwire/ai-sdk` or
 * `hookwire/claude-agent-sdk` without `onReport` gets each hook failure on stderr, one line each
 * (a real app process, test/fixtures/embedding/report-app.ts, its stderr captured); with
 * `onReport` they go there instead and stderr stays quiet.
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPOSITORY } from '../cli/support.ts';
import { group, useHookwireFixture } from './support.ts';
import { createHookwire } from '../../src/ai-sdk.ts';

const APP = join(REPOSITORY, 'test', 'fixtures', 'embedding', 'report-app.ts');
const fixture = useHookwireFixture(createHookwire);

/** Runs the app; resolves with its stdout and stderr. */
async function runApp(
  entry: 'ai-sdk' | 'claude-agent-sdk',
  route: 'default' | 'onReport',
): Promise<{ stdout: string; stderr: string }> {
  const project = fixture.project;
  // A command hook that crashes, and one answering a shape PreToolUse does not have.
  const crasher = await project.script('crasher.sh', `echo 'the crasher broke' >&2; exit 1`);
  const wrongShape = await project.script('wrong-shape.sh', `echo '{"decision": 42}'`);
  const settings = await project.settings('hooks.json', {
    PreToolUse: [
      group([
        { command: crasher, name: 'crasher' },
        { command: wrongShape, name: 'wrong-shape' },
      ]),
    ],
  });
  return new Promise((resolvePromise, reject) => {
    execFile(
      process.execPath,
      [APP, entry, route, project.dir, settings],
      { cwd: REPOSITORY, env: { ...process.env, ...project.env } },
      (error, stdout, stderr) => {
        if (error) reject(new Error(`${error.message}\n${stderr}`));
        else resolvePromise({ stdout, stderr });
      },
    );
  });
}

const hookwireLines = (stderr: string): string[] =>
  stderr.split('\n').filter((line) => line.startsWith('hookwire: '));

describe.each(['ai-sdk', 'claude-agent-sdk'] as const)('hook reports in hookwire/%s', (entry) => {
  it('without onReport, each hook failure is one line on stderr naming the hook', async () => {
    const { stdout, stderr } = await runApp(entry, 'default');
    expect(JSON.parse(stdout)).toEqual([]);
    const lines = hookwireLines(stderr);
    expect(lines, stderr).toHaveLength(2);
    expect(lines).toContainEqual(
      expect.stringMatching(
        /^hookwire: warning: .*hook "wrong-shape" \(PreToolUse\) printed output that does not decode: .*42 is not a decision/,
      ),
    );
    expect(lines).toContainEqual(
      expect.stringMatching(
        /^hookwire: warning: .*hook "crasher" \(PreToolUse\) crashed \(exit 1\): the crasher broke$/,
      ),
    );
  });

  it('with onReport, the reports go there and stderr says nothing', async () => {
    const { stdout, stderr } = await runApp(entry, 'onReport');
    expect(hookwireLines(stderr)).toEqual([]);
    const reports = JSON.parse(stdout) as { level: string; text: string }[];
    expect(reports).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          level: 'warning',
          text: expect.stringContaining('hook "crasher" (PreToolUse) crashed') as string,
        }),
        expect.objectContaining({
          level: 'warning',
          text: expect.stringContaining('hook "wrong-shape" (PreToolUse) printed output') as string,
        }),
      ]),
    );
  });
});
