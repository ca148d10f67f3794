/**
 * `hookwire/testing/contract`: the `AgentHook` contract suite, for code that implements
 * `AgentHook` itself (a new kind of external hook, an adapter from another tool's hooks, a
 * stack of your own). `describeAgentHookContract(name, factory)` registers vitest cases that
 * build hooks from declarative specs (`ScriptedHookSpec`) through your factory and check that
 * they compose like in-process hooks; a factory may decline the answers its kind cannot give
 * (those cases are skipped, never passed). It imports `vitest`, an optional peer dependency:
 * import it only from your tests. Every export is public API.
 */
export {
  describeAgentHookContract,
  CONTRACT_TOOL_CALL,
  CONTRACT_TOOL_RESULT,
  ContractLog,
  scriptedHook,
  type AgentHookFactory,
  type ContractEvent,
  type ContractLogEntry,
  type ScriptedHookSpec,
  type ScriptedResponse,
} from './hooks/testing/index.ts';
