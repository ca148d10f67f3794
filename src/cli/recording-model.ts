import { closeSync, openSync, writeSync } from 'node:fs';
import type {
  LanguageModel,
  ModelCallOptions,
  ModelRequest,
  ModelResponse,
  ModelStreamPart,
} from '../content/index.ts';
import { toHookLLMRequest } from '../wire/index.ts';
import { CliError } from './cli-error.ts';

/** A model that records its requests; `close` releases the file. */
export interface RecordingModel extends LanguageModel {
  close(): void;
}

/**
 * Wraps `model` so every request it receives — the request as the loop sends it, after every
 * hook applied — is appended to `file` as one v2 request envelope per line
 * (`{version: 2, model, contents, tools?, settings?}`), before the call is delegated. The file is
 * opened once for appending (created when missing); an unwritable path is a `CliError`.
 */
export function recordRequests(model: LanguageModel, file: string): RecordingModel {
  let descriptor: number;
  try {
    descriptor = openSync(file, 'a');
  } catch (error) {
    throw new CliError(
      `Cannot open ${file} for --record-requests: ${error instanceof Error ? error.message : String(error)}. Give a path in an existing, writable directory.`,
    );
  }
  const record = (request: ModelRequest): void => {
    // Written synchronously so the line is on disk before the call starts, whatever happens next.
    writeSync(descriptor, JSON.stringify(toHookLLMRequest(request)) + '\n');
  };
  let closed = false;
  return {
    provider: model.provider,
    modelId: model.modelId,
    // The window is the model's: recording must not turn automatic compaction off.
    ...(model.contextWindow === undefined ? {} : { contextWindow: model.contextWindow }),
    generate(request: ModelRequest, options?: ModelCallOptions): Promise<ModelResponse> {
      record(request);
      return model.generate(request, options);
    },
    stream(request: ModelRequest, options?: ModelCallOptions): AsyncIterable<ModelStreamPart> {
      record(request);
      return model.stream(request, options);
    },
    close() {
      if (closed) return;
      closed = true;
      closeSync(descriptor);
    },
  };
}
