/**
 * `hookwire/testing`: test doubles for code built on hookwire. Every export is public API.
 */
export {
  createScriptedModel,
  loadScriptedModel,
  parseScript,
  ScriptError,
  type ScriptedModel,
  type ScriptedModelOptions,
  type ScriptedTurn,
  type ScriptFunction,
} from './adapters/testing/scripted-model.ts';
