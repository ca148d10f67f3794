/** `type: "http"` hooks: the payload POSTed to a URL, the response body as the hook's answer. */
export {
  createHttpHookRunner,
  expandHeaderValue,
  type HttpHookRunnerOptions,
} from './http-hook-runner.ts';
export { httpHookSchema, httpKind, type HttpHookConfig, type HttpHookRunner } from './http-kind.ts';
