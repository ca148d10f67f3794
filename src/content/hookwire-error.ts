const marker = Symbol.for('hookwire.error');

/**
 * The one error base of the library. Every error hookwire throws is a `HookwireError` with a
 * stable `name`, a machine-readable `code` and the structured fields of its subclass; the
 * `Symbol.for` marker makes `HookwireError.isInstance` work across duplicated module copies.
 * Errors are wrapped once: a subclass keeps the original error as `cause`.
 */
export class HookwireError extends Error {
  readonly [marker] = true;
  /** A stable, machine-readable identifier, e.g. `hook_failed` or `settings_invalid`. */
  readonly code: string;

  constructor(code: string, message: string, options?: { cause?: unknown }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'HookwireError';
    this.code = code;
  }

  /** True for any error created by hookwire, whichever copy of the module created it. */
  static isInstance(error: unknown): error is HookwireError {
    return typeof error === 'object' && error !== null && marker in error;
  }
}
