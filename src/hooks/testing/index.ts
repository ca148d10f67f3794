/** Test helpers of the hooks layer: the `AgentHook` contract suite and its scripted hooks. */
export {
  describeAgentHookContract,
  CONTRACT_TOOL_CALL,
  CONTRACT_TOOL_RESULT,
  type AgentHookContractOptions,
  type AgentHookFactory,
} from './agent-hook-contract.ts';
export {
  ContractLog,
  scriptedHook,
  type ContractEvent,
  type ContractLogEntry,
  type ScriptedHookSpec,
  type ScriptedResponse,
} from './scripted-hook.ts';
