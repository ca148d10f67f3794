#!/usr/bin/env node
// Stop hook: the first time a turn completes, asks the agent for one more check before it
// finishes. On the continued turn (`stop_hook_active: true`) it lets the turn end, so it can never
// loop; hookwire also bounds continuations per turn.
import { readFileSync } from 'node:fs';

const payload = JSON.parse(readFileSync(0, 'utf8'));
if (payload.stop_hook_active) process.exit(0);
process.stdout.write(
  JSON.stringify({
    decision: 'block',
    reason: 'Before you finish: read todo.md once more and confirm nothing in it is left undone.',
    systemMessage: 'asked the agent to re-read todo.md before it finishes',
  }),
);
