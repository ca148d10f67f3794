/** `hookwire run --model openai:MODEL` (Chat Completions) end to end. */
import { chatCompletionsCase } from './chat-completions-case.ts';
import { describeProviderEndToEnd } from './provider-end-to-end.ts';

describeProviderEndToEnd(
  'OpenAI Chat Completions',
  { modelSpec: 'openai:gpt-e2e', ...chatCompletionsCase },
  {
    what: 'the API key',
    message:
      'hookwire: OPENAI_API_KEY is not set: export it, or pass --base-url for a keyless local server',
  },
);
