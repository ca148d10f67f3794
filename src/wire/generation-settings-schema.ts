import { z } from 'zod';
import { lazy } from './lazy.ts';
import { toolChoiceSchema } from './tool-choice.ts';

/** Neutral reasoning controls (strict: a typo here would silently change nothing). */
export const reasoningSettingsSchema = lazy(() =>
  z.strictObject({
    effort: z.enum(['minimal', 'low', 'medium', 'high']).optional(),
    budgetTokens: z.number().optional(),
    includeThoughts: z.boolean().optional(),
  }),
);

/**
 * The `settings` of a v2 request, as `GenerationSettings`. The known keys are type-checked;
 * unknown keys are allowed and kept (providers take more settings than the neutral set), so this
 * object is loose where every other wire object is strict.
 */
export const generationSettingsSchema = lazy(() =>
  z.looseObject({
    temperature: z.number().optional(),
    maxOutputTokens: z.number().optional(),
    topP: z.number().optional(),
    topK: z.number().optional(),
    stopSequences: z.array(z.string()).optional(),
    seed: z.number().optional(),
    systemInstruction: z.string().optional(),
    toolChoice: toolChoiceSchema().optional(),
    reasoning: reasoningSettingsSchema().optional(),
    additionalParams: z.record(z.string(), z.unknown()).optional(),
  }),
);
