/**
 * `hookwire/restate`: durable sessions on Restate. Kept apart from `hookwire` so that code using
 * only the engine never loads `@restatedev/restate-sdk` (a peer dependency of this entry only).
 *
 * ```ts
 * import * as restate from '@restatedev/restate-sdk';
 * import { sessionObject } from 'hookwire/restate';
 * await restate.serve({ services: [sessionObject({ agent: () => ({ model, tools, hooks, cwd }) })], port: 9080 });
 * ```
 */
export * from './adapters/restate/index.ts';
