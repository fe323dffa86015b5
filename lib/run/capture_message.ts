/**
 * Why a capture found nothing, as a step shows it: each value the reason
 * quotes (a key of the response, a value of the wrong type, a reason that may
 * quote the body) masked as a value where it is made, flowrun's words and what
 * the flow wrote (its path, a header's name) never, so the reports keep it as
 * flowrun's text (see `secrets/own_fields.ts`). A reason made without its
 * words apart is masked whole, as a value.
 *
 * @module
 */
import type { Captured } from "../check/capture.ts";
import type { Masking } from "../model/masking.ts";
import { tell } from "../model/told.ts";

/**
 * The reason `got` found nothing, masked by `display`.
 *
 * @example
 * ```ts
 * import { unfoundMessage } from "./capture_message.ts";
 * import { notFound } from "../check/capture.ts";
 * import { told } from "../model/told.ts";
 * import { Redactor } from "../secrets/mod.ts";
 * const r = new Redactor();
 * r.add("found");
 * const got = notFound(told`$.json.id matched nothing (did you mean "${"found"}"?)`);
 * const shown = unfoundMessage(got, r);
 * if (shown !== '$.json.id matched nothing (did you mean "***"?)') throw new Error(shown);
 * if (unfoundMessage({ found: false, why: "not found" }, r) !== "not ***") throw new Error();
 * ```
 */
export function unfoundMessage(got: Captured, display: Pick<Masking, "redact">): string {
  if (got.found) return "";
  return got.said === undefined ? display.redact(got.why) : tell(got.said, display);
}
