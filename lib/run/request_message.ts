/**
 * A request error's (or an auth error's) message as a step shows it: masked where it is made,
 * each value it quotes as a value (a URL, the runtime's words), flowrun's
 * words never, so the reports keep it as flowrun's text (see
 * `secrets/own_fields.ts`). A message made without `told` is masked whole,
 * as a value.
 *
 * @module
 */
import { AuthError } from "../http/auth_error.ts";
import { RequestError } from "../http/request_error.ts";
import type { Masking } from "../model/masking.ts";
import { tell } from "../model/told.ts";

/**
 * The message of `error`, masked by `display`.
 *
 * @example
 * ```ts
 * import { requestMessage } from "./request_message.ts";
 * import { RequestError } from "../http/request_error.ts";
 * import { told } from "../model/told.ts";
 * import { Redactor } from "../secrets/mod.ts";
 * const r = new Redactor();
 * r.add("refused");
 * const url = "http://127.0.0.1:1/x?q=refused";
 * const made = new RequestError("bad-url", told`Request failed: connection refused ("${url}").`);
 * const shown = requestMessage(made, r);
 * if (shown !== 'Request failed: connection refused ("http://127.0.0.1:1/x?q=***").') throw new Error(shown);
 * if (requestMessage(new Error("refused"), r) !== "***") throw new Error();
 * ```
 */
export function requestMessage(error: Error, display: Pick<Masking, "redact">): string {
  return (error instanceof RequestError || error instanceof AuthError) && error.told !== undefined
    ? tell(error.told, display)
    : display.redact(error.message);
}
