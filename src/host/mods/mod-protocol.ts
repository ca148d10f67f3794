/**
 * The messages between the main thread (`mod-host.ts`) and a mod's worker (`mod-worker.ts`).
 * Everything is structured-cloned: plain data only, never a function.
 */

/** What a worker is started with. */
export interface ModWorkerData {
  /** The plugin's name (`plugin.json` `name`). */
  readonly name: string;
  /** The plugin directory, absolute. */
  readonly root: string;
  /** The modules `hooks/hooks.json` lists, absolute, in order. */
  readonly modules: readonly string[];
  /** `userConfig` defaults overridden by `pluginConfigs[…].options`. */
  readonly options: Readonly<Record<string, unknown>>;
}

/** One `on(pattern, matcher?, hook)` of a module, in the order `register` called `on`. */
export interface RegistrationInfo {
  readonly index: number;
  readonly pattern: string;
  /** A value, an array (any of), a RegExp, or an object of those; absent: every event. */
  readonly matcher?: unknown;
  readonly hasCatch: boolean;
}

/** Who raised a dispatch (`next.origin`). */
export interface DispatchOrigin {
  readonly plugin: string;
  readonly tier: string;
}

export type HostMessage =
  | {
      /** Run registration `index` (or its `.catch` handler when `failure` is set) as `frame`. */
      readonly type: 'run';
      readonly frame: number;
      readonly index: number;
      readonly event: string;
      readonly e: unknown;
      readonly origin: DispatchOrigin;
      readonly budgetMs: number;
      readonly failure?: { readonly kind: string; readonly called: boolean };
    }
  | {
      /** The answer to a `next` or `cap` request. */
      readonly type: 'reply';
      readonly call: number;
      readonly ok: boolean;
      readonly value?: unknown;
      readonly message?: string;
    }
  | { readonly type: 'ping'; readonly probe: number };

export type WorkerMessage =
  | { readonly type: 'loaded'; readonly registrations: readonly RegistrationInfo[] }
  | { readonly type: 'load-failed'; readonly message: string }
  | { readonly type: 'done'; readonly frame: number; readonly value: unknown }
  | { readonly type: 'failed'; readonly frame: number; readonly message: string }
  | {
      /** `next(e)` (or `next.to(e, to)`) of hook run `frame`. */
      readonly type: 'next';
      readonly frame: number;
      readonly call: number;
      readonly e: unknown;
      readonly to?: string;
    }
  | {
      /** `$.noun.method(...args)` of hook run `frame`. */
      readonly type: 'cap';
      readonly frame: number;
      readonly call: number;
      readonly noun: string;
      readonly method: string;
      readonly args: readonly unknown[];
    }
  | {
      /** A timer's `cancel()`: stop serving `$` call `call` (it then rejects, unseen). */
      readonly type: 'cancel';
      readonly call: number;
    }
  | { readonly type: 'console'; readonly text: string }
  | { readonly type: 'pong'; readonly probe: number };
