import { HookStack } from '../../src/hooks/index.ts';
import { describeAgentHookContract, scriptedHook } from '../../src/testing-contract.ts';

describeAgentHookContract('plain object answering synchronously', (spec, log) =>
  scriptedHook(spec, log),
);
describeAgentHookContract('plain object answering with promises', (spec, log) =>
  scriptedHook(spec, log, true),
);
describeAgentHookContract(
  'HookStack wrapping the hook',
  (spec, log) => new HookStack([scriptedHook(spec, log)]),
);
describeAgentHookContract(
  'HookStack nested in a HookStack',
  (spec, log) => new HookStack([new HookStack([scriptedHook(spec, log, true)])]),
);
