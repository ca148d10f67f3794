/**
 * The lifecycle layer: one function per decision point of a turn, shared by every host (the
 * loop, the AI SDK adapter, the Claude Agent SDK bridge). Each takes the hooks
 * (`LifecycleHooks`), the host-neutral facts, and returns a plain decision the host applies in
 * its own shapes; none returns a promise when no hook observes its events.
 */
export * from './lifecycle-hooks.ts';
export * from './prompt.ts';
export * from './model-call.ts';
export * from './tool-call.ts';
export * from './turn-end.ts';
export { enforceToolChoice, withToolChoice } from './tool-choice.ts';
