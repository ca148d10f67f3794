/**
 * `hookwire/internal`: the wire-level codec under hookwire's hooks — the v2 envelope decoders and
 * merge rules, a hook's stdout parser, and the payload/answer codec of the event catalogue. For
 * tools built on hookwire's wire (hook SDKs in other languages, conformance checks, benchmarks).
 * Unlike the root export these names follow the wire, not semver: a minor release may change
 * them. Applications use the root export (`HookStack`, `AgentHook`, the settings loaders), which
 * applies all of this for them.
 */
export {
  aggregateToolChoice,
  decodeHookLLMRequest,
  decodeHookLLMRequestOverride,
  decodeHookLLMResponse,
  decodeToolChoice,
  mergeHookLLMRequest,
  mergeLLMRequestOverrides,
  parseHookStdout,
  toHookLLMRequest,
  toHookLLMResponse,
} from './wire/index.ts';
export { buildHookInput, decodeHookOutput } from './events/index.ts';
