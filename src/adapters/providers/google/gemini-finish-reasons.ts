export { GEMINI_FINISH_REASONS } from '../../../content/gemini-finish-reasons.ts';

/**
 * Finish info of a response whose prompt was blocked (`promptFeedback.blockReason`, no
 * candidate): always `safety`, whatever the reason (`OTHER`, `JAILBREAK`, `MODEL_ARMOR`, future
 * values alike: a filter refused the prompt), with the raw reason kept.
 */
export function blockedPromptFinish(blockReason: string): {
  readonly finishReason: 'safety';
  readonly rawStopReason: string;
} {
  return { finishReason: 'safety', rawStopReason: blockReason };
}
