import { z } from 'zod';
import { timeoutSchema } from './timeout-schema.ts';

/**
 * The settings fields every hook kind accepts besides its own (`timeout`, `name`, `description`,
 * `failClosed`), for a kind's schema. `defaultName` says what `name` defaults to.
 */
export function commonHookFields(defaultName: string) {
  return {
    timeout: timeoutSchema().optional(),
    name: z
      .string()
      .regex(/\S/)
      .optional()
      .meta({ description: `A name shown in listings and logs. Defaults to ${defaultName}.` }),
    description: z.string().optional().meta({ description: "A note on the hook's purpose." }),
    failClosed: z.boolean().optional().meta({
      description:
        'true for a guard: if the hook fails, times out or answers badly, the guarded action is denied. Default false (fail open with a warning).',
    }),
  } as const;
}
