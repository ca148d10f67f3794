/**
 * The host-parity contract: every scenario of `scenarios.ts` through every host it applies to,
 * each compared with the one expected outcome (the ordered hook log, what the model saw, how the
 * turn ended, what the tools ran with, what was reported).
 */
import { describe, expect, it } from 'vitest';
import { createAiSdkProject, type AiSdkProject } from '../ai-sdk/support.ts';
import { runOnAiSdk } from './drivers/ai-sdk.ts';
import { runOnClaude } from './drivers/claude.ts';
import { runOnLoop } from './drivers/loop.ts';
import { HOSTS, SCENARIOS, type HostName, type HostOutcome, type Scenario } from './scenarios.ts';

const DRIVERS: Record<
  HostName,
  (scenario: Scenario, project: AiSdkProject) => Promise<HostOutcome>
> = {
  loop: (scenario, project) => runOnLoop(scenario, project, false),
  'loop-streaming': (scenario, project) => runOnLoop(scenario, project, true),
  generateText: (scenario, project) => runOnAiSdk(scenario, project, 'generateText'),
  streamText: (scenario, project) => runOnAiSdk(scenario, project, 'streamText'),
  claude: (scenario, project) => runOnClaude(scenario, project),
};

for (const host of HOSTS) {
  describe(`host parity: ${host}`, () => {
    for (const scenario of SCENARIOS) {
      if (scenario.hosts !== undefined && !scenario.hosts.includes(host)) continue;
      it(scenario.name, async () => {
        const project = await createAiSdkProject();
        try {
          const outcome = await DRIVERS[host](scenario, project);
          const { why: _why, ...difference } = scenario.differences?.[host] ?? { why: '' };
          const expected = { ...scenario.expect, ...difference };
          // The Claude bridge has no model: what "the model saw" is what its driver passed on.
          expect(outcome).toEqual(expected);
        } finally {
          await project.close();
        }
      });
    }
  });
}
