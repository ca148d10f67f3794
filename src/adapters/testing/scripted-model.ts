/**
 * A scripted `LanguageModel` for tests, demos and benchmarks: it replays one scripted turn per
 * model call, in order, on both surfaces, and — when asked (`keepRequests`, for tests that read
 * them) — keeps every request it received. By default it keeps none: each request holds the
 * whole history, so keeping them all grows with the square of a session's length (a 10,000-step
 * session needed ~1 GB).
 *
 * JSONL form (`loadScriptedModel(file)`), one line per model call:
 * `{"blocks": [ …content blocks… ], "finishReason": "stop" | … | null, "rawStopReason"?: "…",
 * "usage"?: {…}, "delayMs"?: N}`. Blank lines and lines starting with `//` are ignored.
 * `finishReason: null` means the provider reported no reason.
 */
import { readFile } from 'node:fs/promises';
import { parsePlainScript } from './plain-script.ts';
import {
  HookwireError,
  ModelError,
  type ContentBlock,
  type FinishReason,
  type LanguageModel,
  type ModelCallOptions,
  type ModelRequest,
  type ModelResponse,
  type ModelStreamPart,
  type Usage,
} from '../../content/index.ts';

/** One scripted model answer. */
export interface ScriptedTurn {
  readonly blocks: readonly ContentBlock[];
  /** The canonical finish reason; `undefined` (JSONL `null`) means none reported. */
  readonly finishReason?: FinishReason | undefined;
  readonly rawStopReason?: string;
  readonly usage?: Usage;
  /** Milliseconds to wait before answering; the wait honours the call's abort signal. */
  readonly delayMs?: number;
}

/** Answers each call from the request instead of a fixed list. `callIndex` is zero-based. */
export type ScriptFunction = (
  request: ModelRequest,
  callIndex: number,
) => ScriptedTurn | Promise<ScriptedTurn>;

export interface ScriptedModelOptions {
  /** The model id reported (and expected in requests); default `scripted`. */
  readonly modelId?: string;
  /** Where the script came from, for the out-of-lines error; default `the script`. */
  readonly source?: string;
  /** How many deltas each text or thinking block streams as (at least 1); default 4. */
  readonly deltasPerBlock?: number;
  /**
   * Keep every request received, for `requests` (tests that read what the model was sent).
   * Default false: `requests` then throws, so a test that forgot to ask fails clearly.
   */
  readonly keepRequests?: boolean;
}

/** A scripted model: a `LanguageModel` that also exposes what it was asked. */
export interface ScriptedModel extends LanguageModel {
  /**
   * Every request received, in call order (the request object the caller passed). Only with
   * `keepRequests: true`; otherwise reading it throws.
   */
  readonly requests: readonly ModelRequest[];
  /** Number of calls made so far (including calls that failed). */
  readonly callCount: number;
}

/** A script file or line is malformed: `file`, `line` and the problem are in the message. */
export class ScriptError extends HookwireError {
  readonly file: string;
  readonly line: number;

  constructor(file: string, line: number, problem: string) {
    super('script_invalid', `${file}:${line}: ${problem}`);
    this.name = 'ScriptError';
    this.file = file;
    this.line = line;
  }
}

/** Reads a JSONL script file and returns a scripted model replaying it. */
export async function loadScriptedModel(
  file: string,
  options: Omit<ScriptedModelOptions, 'source'> = {},
): Promise<ScriptedModel> {
  const text = await readFile(file, 'utf8');
  // Plain scripts are read without the validator (zod and the content schemas), which loads
  // only for a script the fast path does not take: it then reports any problem.
  const turns =
    parsePlainScript(text) ?? (await import('./scripted-script.ts')).parseScript(text, file);
  return createScriptedModel(turns, { ...options, source: file });
}

/**
 * Creates a scripted model. With a list, call N answers line N; running out of lines rejects with
 * a `ModelError` of kind `script`. With a function, each call is answered from the request.
 *
 * `generate` answers the whole turn; `stream` yields each text block in several `text-delta`s,
 * each thinking block as `reasoning-delta`s (the last one carrying the signature), each tool call
 * as `tool-call-delta`s (its arguments JSON in fragments), then one `finish` with the turn. Every
 * answer is a fresh copy, so callers may keep or change it without touching the script.
 */
export function createScriptedModel(
  script: readonly ScriptedTurn[] | ScriptFunction,
  options: ScriptedModelOptions = {},
): ScriptedModel {
  const modelId = options.modelId ?? 'scripted';
  const source = options.source ?? 'the script';
  const deltasPerBlock = Math.max(1, options.deltasPerBlock ?? 4);
  const requests: ModelRequest[] | undefined = options.keepRequests === true ? [] : undefined;
  let calls = 0;

  const next = async (
    request: ModelRequest,
    signal: AbortSignal | undefined,
  ): Promise<ScriptedTurn> => {
    const callIndex = calls++;
    requests?.push(request);
    throwIfAborted(signal);
    let turn: ScriptedTurn | undefined;
    if (typeof script === 'function') {
      turn = await script(request, callIndex);
    } else {
      turn = script[callIndex];
      if (turn === undefined) {
        throw new ModelError({
          kind: 'script',
          provider: 'scripted',
          message: `scripted model has no line for call ${callIndex + 1} (${source} has ${script.length} lines)`,
        });
      }
    }
    if (turn.delayMs !== undefined && turn.delayMs > 0) await delay(turn.delayMs, signal);
    throwIfAborted(signal);
    return turn;
  };

  const model: ScriptedModel = {
    provider: 'scripted',
    modelId,
    get requests(): readonly ModelRequest[] {
      if (requests === undefined)
        throw new Error(
          'this scripted model keeps no requests: create it with { keepRequests: true } to read them',
        );
      return requests;
    },
    get callCount() {
      return calls;
    },
    async generate(request: ModelRequest, callOptions?: ModelCallOptions): Promise<ModelResponse> {
      return toResponse(await next(request, callOptions?.signal));
    },
    async *stream(
      request: ModelRequest,
      callOptions?: ModelCallOptions,
    ): AsyncIterable<ModelStreamPart> {
      const signal = callOptions?.signal;
      const turn = await next(request, signal);
      let toolIndex = 0;
      for (const block of turn.blocks) {
        switch (block.type) {
          case 'text':
            for (const piece of split(block.text, deltasPerBlock)) {
              throwIfAborted(signal);
              yield { type: 'text-delta', text: piece };
            }
            break;
          case 'thinking': {
            const pieces = split(block.thought, deltasPerBlock);
            for (let index = 0; index < pieces.length; index++) {
              throwIfAborted(signal);
              const last = index === pieces.length - 1;
              yield last && block.signature !== undefined
                ? { type: 'reasoning-delta', text: pieces[index] ?? '', signature: block.signature }
                : { type: 'reasoning-delta', text: pieces[index] ?? '' };
            }
            break;
          }
          case 'tool_call': {
            const argumentsText = JSON.stringify(block.parameters ?? {});
            const pieces = split(argumentsText, 3, true);
            for (let index = 0; index < pieces.length; index++) {
              throwIfAborted(signal);
              yield index === 0
                ? {
                    type: 'tool-call-delta',
                    index: toolIndex,
                    callId: block.id,
                    toolName: block.name,
                    argumentsDelta: pieces[index] ?? '',
                  }
                : {
                    type: 'tool-call-delta',
                    index: toolIndex,
                    argumentsDelta: pieces[index] ?? '',
                  };
            }
            toolIndex++;
            break;
          }
          default:
            break;
        }
      }
      throwIfAborted(signal);
      yield { type: 'finish', response: toResponse(turn) };
    },
  };
  return model;
}

function toResponse(turn: ScriptedTurn): ModelResponse {
  // A fresh copy per answer, as a provider's freshly decoded response would be.
  const blocks = structuredClone(turn.blocks) as ContentBlock[];
  return {
    content: { speaker: 'ai', blocks },
    ...(turn.finishReason === undefined ? {} : { finishReason: turn.finishReason }),
    ...(turn.rawStopReason === undefined ? {} : { rawStopReason: turn.rawStopReason }),
    ...(turn.usage === undefined ? {} : { usage: { ...turn.usage } }),
  };
}

/**
 * Splits `value` into about `count` pieces: at word boundaries for prose, by characters for JSON
 * (`byCharacters`) or when there are fewer words than pieces. Empty text is one empty piece.
 */
function split(value: string, count: number, byCharacters = false): string[] {
  if (value.length === 0 || count <= 1) return [value];
  if (!byCharacters) {
    const words = value.match(/\S+\s*|\s+/g) ?? [value];
    if (words.length >= count) {
      const pieces: string[] = [];
      const size = Math.ceil(words.length / count);
      for (let index = 0; index < words.length; index += size) {
        pieces.push(words.slice(index, index + size).join(''));
      }
      return pieces;
    }
  }
  const pieces: string[] = [];
  const size = Math.max(1, Math.ceil(value.length / count));
  for (let index = 0; index < value.length; index += size)
    pieces.push(value.slice(index, index + size));
  return pieces;
}

function abortedError(): ModelError {
  return new ModelError({
    kind: 'aborted',
    provider: 'scripted',
    message: 'the scripted model call was cancelled',
  });
}

function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted === true) throw abortedError();
}

function delay(milliseconds: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted === true) {
      reject(abortedError());
      return;
    }
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(abortedError());
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, milliseconds);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
