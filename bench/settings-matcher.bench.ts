/**
 * Matcher cost per event. Compiled name matchers (one name: a string comparison; a list: a Set)
 * are measured against the same names as an anchored regular expression, the way a matcher
 * would be run if every matcher were treated as a pattern; the pattern matcher against a bare
 * `RegExp.test`, to show the wrapper adds nothing measurable. Also: loading a realistic settings
 * text against `JSON.parse` of the same text (the price of validation).
 */
import type * as SettingsModule from '../src/hook-kinds/settings/index.ts';
import { load, timing } from './built.ts';
import { compare } from './harness.ts';

const { compileMatcher, parseSettingsText } = await load<typeof SettingsModule>(
  'hook-kinds/settings/index',
);

const at = { file: 'bench.json', path: 'hooks.PreToolUse[0].matcher' };
const toolNames = [
  'Bash',
  'BashOutput',
  'Edit',
  'Write',
  'Read',
  'Glob',
  'Grep',
  'mcp__github__create_issue',
];
let sink = 0;

function run(matches: (value: string) => boolean): () => void {
  return () => {
    for (const name of toolNames) if (matches(name)) sink++;
  };
}

const settingsText = JSON.stringify({
  hooks: {
    PreToolUse: [
      {
        matcher: 'Bash',
        hooks: [{ type: 'command', command: './guard.sh', timeout: 5, failClosed: true }],
      },
      {
        matcher: 'Edit|Write|MultiEdit',
        sequential: true,
        hooks: [
          { type: 'command', command: './fmt.sh' },
          { type: 'command', command: './lint.sh', timeout: '2m' },
        ],
      },
      { matcher: 'mcp__.*', hooks: [{ type: 'command', command: './audit.sh', timeout: '500ms' }] },
    ],
    PostToolUse: [{ hooks: [{ type: 'command', command: './log.sh' }] }],
    Stop: [{ hooks: [{ type: 'command', command: './check.sh' }] }],
  },
});

export default async function settingsMatcherBench(): Promise<void> {
  console.log(`    ${timing()}`);
  const single = compileMatcher('Bash', at);
  const singleRegex = /^(?:Bash)$/;
  await compare(
    'matcher: one name vs anchored RegExp (8 tool names)',
    run(single.matches),
    run((value) => singleRegex.test(value)),
    {
      rounds: 41,
      operationsPerSample: 20_000,
      unit: 'ns',
    },
  );

  const list = compileMatcher('Edit|Write|MultiEdit|NotebookEdit', at);
  const listRegex = /^(?:Edit|Write|MultiEdit|NotebookEdit)$/;
  await compare(
    'matcher: name list (Set) vs anchored RegExp (8 tool names)',
    run(list.matches),
    run((value) => listRegex.test(value)),
    {
      rounds: 41,
      operationsPerSample: 20_000,
      unit: 'ns',
    },
  );

  const pattern = compileMatcher('mcp__.*', at);
  const bare = /^(?:mcp__.*)$/;
  await compare(
    'matcher: compiled pattern vs bare RegExp.test (8 tool names)',
    run(pattern.matches),
    run((value) => bare.test(value)),
    {
      rounds: 41,
      operationsPerSample: 20_000,
      unit: 'ns',
    },
  );

  await compare(
    'settings: parseSettingsText vs JSON.parse of the same file',
    () => parseSettingsText(settingsText, { file: 'bench.json', layer: 'project' }),
    () => JSON.parse(settingsText) as unknown,
    { rounds: 21, operationsPerSample: 500, unit: 'µs' },
  );
  if (sink < 0) console.log(sink);
}
