/**
 * `hookwire/testing`: test doubles for code built on hookwire. Every export is public API.
 */
export {
  createScriptedModel,
  loadScriptedModel,
  ScriptError,
  type ScriptedModel,
  type ScriptedModelOptions,
  type ScriptedTurn,
  type ScriptFunction,
} from './adapters/testing/scripted-model.ts';
export { parseScript } from './adapters/testing/scripted-script.ts';
