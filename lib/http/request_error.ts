/**
 * Why a request got no response, as one error type every stage can test for:
 * the network failed, the deadline passed, the URL was unusable, the run was
 * interrupted, or the body was past its cap.
 *
 * @module
 */

import { tell, type Told } from "../model/told.ts";

/**
 * Why a request got no response: network failure, timeout, or an unusable URL.
 * A message made with `told` keeps its words apart from the values it quotes
 * (a URL), so that a step masks those values where it shows the message.
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
  /** The message as flowrun's words and the values it quotes, when it was made so. */
  readonly told: Told | undefined;
  /** An error of kind `code`, `message` as results show it (values in clear). */
  constructor(code: RequestError["code"], message: string | Told) {
    super(typeof message === "string" ? message : tell(message));
    this.name = "RequestError";
    this.code = code;
    this.told = typeof message === "string" ? undefined : message;
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
