/**
 * Why a request got no response, as one error type every stage can test for:
 * the network failed, the deadline passed, the URL was unusable, the run was
 * interrupted, or the body was past its cap.
 *
 * @module
 */

/**
 * Why a request got no response: network failure, timeout, or an unusable URL.
 *
 * @example
 * ```ts
 * import { RequestError } from "./request_error.ts";
 * import { resolveRequest } from "./request.ts";
 * import { parseTemplate } from "../expr/template.ts";
 * const scope = { env: () => undefined, vars: new Map(), steps: new Map(), runId: "r" };
 * try {
 *   resolveRequest({ method: "GET", url: parseTemplate("/relative"), headers: [] }, scope);
 *   throw new Error("expected a bad URL");
 * } catch (error) {
 *   if (!(error instanceof RequestError) || error.code !== "bad-url") throw error;
 * }
 * ```
 */
export class RequestError extends Error {
  /** Which of the reasons: what a step's retry (`network`) and the reports tell apart. */
  readonly code: "network" | "timeout" | "bad-url" | "interrupted" | "body-too-large";
  /** An error of kind `code`, `message` as results show it. */
  constructor(code: RequestError["code"], message: string) {
    super(message);
    this.name = "RequestError";
    this.code = code;
  }
}

/**
 * The name an interrupt signal was aborted with (e.g. `SIGINT`), for messages.
 *
 * @example
 * ```ts
 * import { reasonOf } from "./request_error.ts";
 * if (reasonOf(AbortSignal.abort("SIGINT")) !== "SIGINT") throw new Error();
 * if (reasonOf(AbortSignal.abort()) !== "interrupted") throw new Error();
 * ```
 */
export function reasonOf(signal: AbortSignal): string {
  return typeof signal.reason === "string" ? signal.reason : "interrupted";
}
