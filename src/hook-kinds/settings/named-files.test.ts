import { describe, expect, it } from 'vitest';
import { namedProjectFiles } from './named-files.ts';

const project = '/work/project';

describe('namedProjectFiles', () => {
  it.each([
    ['./hooks/lint.sh', ['hooks/lint.sh']],
    ['hooks/lint.sh --fix 2>/dev/null', ['hooks/lint.sh']],
    ['node hooks/check.mjs --strict', ['hooks/check.mjs']],
    ['python3 -u scripts/guard.py', ['scripts/guard.py']],
    ['deno run --allow-read tools/x.ts', ['tools/x.ts']],
    ['bash "$CLAUDE_PROJECT_DIR"/.claude/hooks/a.sh', ['.claude/hooks/a.sh']],
    ['${GEMINI_PROJECT_DIR}/.gemini/hooks/b.sh', ['.gemini/hooks/b.sh']],
    ['$HOOKWIRE_PROJECT_DIR/hooks/c.sh', ['hooks/c.sh']],
    ['FOO=1 exec ./a.sh && ./b.sh | tee out.txt', ['a.sh', 'b.sh']],
    ["'./quoted dir/x.sh'", ['quoted dir/x.sh']],
    ['/work/project/bin/x', ['bin/x']],
  ])('%s names %j', (command, expected) => {
    expect(namedProjectFiles(command, project)).toEqual(expected);
  });

  it('reads the string of sh -c', () => {
    expect(namedProjectFiles(`bash -c './hooks/x.sh --a; node y.js'`, project)).toEqual([
      'hooks/x.sh',
      'y.js',
    ]);
  });

  it.each([
    'node -e "1"',
    'python3 -m guard',
    'jq .tool_input',
    '/usr/local/bin/guard',
    '../outside/x.sh',
    './log.sh >> hooks/log.txt',
    '$HOME/bin/x.sh',
    '# ./commented.sh',
  ])('%s names nothing inside the project (but the command word)', (command) => {
    const named = namedProjectFiles(command, project);
    expect(named.filter((path) => path !== 'log.sh')).toEqual([]);
  });
});
