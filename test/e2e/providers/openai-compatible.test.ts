/**
 * `hookwire run --model openai-compatible:MODEL` end to end: Chat Completions against a keyless
 * local server (vLLM, llama.cpp, Ollama…), so the run sets no key at all and the SDK sends the
 * placeholder; without a server to talk to, the error names the variable to set.
 */
import { describeProviderEndToEnd } from './provider-end-to-end.ts';
import { chatCompletionsCase } from './chat-completions-case.ts';

describeProviderEndToEnd(
  'OpenAI-compatible server, keyless',
  { ...chatCompletionsCase, modelSpec: 'openai-compatible:llama-e2e', keyVariable: undefined },
  {
    what: "the server's base URL",
    message: 'hookwire: openai-compatible needs a server: pass --base-url or set OPENAI_BASE_URL',
  },
);
