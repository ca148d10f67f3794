/**
 * A typed key into a `Scratchpad`. Two keys are the same slot only if they are the same object,
 * so independent hooks never collide by name; `name` is for diagnostics.
 */
export interface ScratchpadKey<T> {
  readonly name: string;
  /** Creates the value the first time `update` touches an absent slot. */
  readonly initial: () => T;
}

/** Creates a typed scratchpad key. Define keys once, at module level. */
export function scratchpadKey<T>(name: string, initial: () => T): ScratchpadKey<T> {
  return Object.freeze({ name, initial });
}

/**
 * Run-scoped state shared by the hooks of one run (created fresh for every run, dropped with it).
 *
 * `update` is atomic: the updater runs synchronously against the current value, so concurrent
 * hook invocations (parallel tool calls) never lose a write. Keep updaters free of `await`.
 */
export class Scratchpad {
  readonly #slots = new Map<ScratchpadKey<unknown>, unknown>();

  /** The value in the slot, or `undefined` when it was never set. */
  get<T>(key: ScratchpadKey<T>): T | undefined {
    return this.#slots.get(key) as T | undefined;
  }

  /** Sets the slot and returns the previous value. */
  set<T>(key: ScratchpadKey<T>, value: T): T | undefined {
    const previous = this.get(key);
    this.#slots.set(key, value);
    return previous;
  }

  has(key: ScratchpadKey<unknown>): boolean {
    return this.#slots.has(key);
  }

  /** Removes the slot and returns its value. */
  delete<T>(key: ScratchpadKey<T>): T | undefined {
    const previous = this.get(key);
    this.#slots.delete(key);
    return previous;
  }

  /**
   * Atomically reads, changes and stores the slot (initialised with `key.initial()` when absent),
   * returning what `updater` returns. `updater` receives the current value and returns
   * `[next, result]`.
   */
  update<T, R>(key: ScratchpadKey<T>, updater: (current: T) => readonly [next: T, result: R]): R {
    const current = this.#slots.has(key) ? (this.get(key) as T) : key.initial();
    const [next, result] = updater(current);
    this.#slots.set(key, next);
    return result;
  }
}
