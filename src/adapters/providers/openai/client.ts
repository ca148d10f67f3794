import OpenAI from 'openai';
import { ModelError } from '../../../content/index.ts';

/** Options shared by the OpenAI Chat Completions and Responses models. */
export interface OpenAIModelOptions {
  /** The model id sent with every request, e.g. `gpt-5-mini`. */
  readonly model: string;
  /** API key; defaults to `OPENAI_API_KEY`. Not needed for a `compatible` server. */
  readonly apiKey?: string;
  /** Server root including the version path; defaults to `https://api.openai.com/v1`. */
  readonly baseURL?: string;
  /** True when `baseURL` is an OpenAI-compatible server rather than OpenAI. Default false. */
  readonly compatible?: boolean;
  /** The `fetch` the SDK uses; defaults to the global one. */
  readonly fetch?: (input: string | URL | Request, init?: RequestInit) => Promise<Response>;
  /** Retries the SDK makes on 408/409/429/5xx and connection errors. SDK default: 2. */
  readonly maxRetries?: number;
  /**
   * The model's context window in tokens (`LanguageModel.contextWindow`, the loop's default
   * compaction budget). Default: the known window of the model id (`context-windows.ts`), none
   * for an id the table does not know and for a `compatible` server (its models are its own).
   */
  readonly contextWindow?: number;
}

/**
 * Creates the SDK client for the options. A missing key fails here, at configuration time, with
 * what to do; a compatible server that takes no key gets a placeholder the SDK requires.
 */
export function createOpenAIClient(options: OpenAIModelOptions): OpenAI {
  const apiKey =
    options.apiKey ?? process.env['OPENAI_API_KEY'] ?? (options.compatible === true ? 'none' : '');
  if (apiKey === '') {
    throw new ModelError({
      kind: 'authentication',
      provider: 'openai',
      message:
        'OpenAI needs an API key: pass apiKey, or set OPENAI_API_KEY, or set compatible: true ' +
        'for a server that takes none.',
    });
  }
  return new OpenAI({
    apiKey,
    ...(options.baseURL === undefined ? {} : { baseURL: options.baseURL }),
    ...(options.maxRetries === undefined ? {} : { maxRetries: options.maxRetries }),
    ...(options.fetch === undefined ? {} : { fetch: options.fetch }),
  });
}
