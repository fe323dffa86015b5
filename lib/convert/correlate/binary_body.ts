/**
 * A request body that is not UTF-8 text (`har_body_bytes.ts`): a flow's `body` is sent as
 * UTF-8, so the bytes go into a file beside the flow that the step sends as its `body_file`,
 * byte for byte, as `convert curl` does for `--data-binary @file`. A body whose bytes the
 * recording lost is a placeholder file of the same kind, which the summary says to replace:
 * sending the text the recording kept would send other bytes, and the server's refusal would
 * explain nothing. A flow cannot put a captured value inside bytes, so a body that holds
 * values earlier answers produced is sent as recorded and the summary says so.
 *
 * @module
 */
import { plural } from "../../_util/plural.ts";
import type { HarRecord } from "../har_model.ts";
import type { Step } from "../model.ts";
import { PLACEHOLDER_TEXT, placeholderPath } from "../uploads.ts";
import type { Correlator } from "./state.ts";
import { bodyExtension } from "./unrecorded_body.ts";

/**
 * Gives `step` the `body_file` of the binary body `r` sent; `false` (nothing changed) when
 * the body is text. The file is named for the step (one per step), with the extension of
 * the body's media type.
 *
 * @example
 * ```ts
 * import { binaryBody } from "./binary_body.ts";
 * import { newCorrelator } from "./pipeline.ts";
 * const c = newCorrelator("a");
 * const r = { headers: [{ name: "Content-Type", value: "image/png" }], bodyBytes: new Uint8Array([0x89]) };
 * // deno-lint-ignore no-explicit-any
 * const step = { name: "post_avatar" } as any;
 * // deno-lint-ignore no-explicit-any
 * if (!binaryBody(c, r as any, step) || step.bodyFile !== "uploads/post_avatar.png") throw new Error();
 * if (!(c.files.get("uploads/post_avatar.png") instanceof Uint8Array)) throw new Error();
 * ```
 */
export function binaryBody(c: Correlator, r: HarRecord, step: Step): boolean {
  if (r.bodyBytes === undefined && r.bodyLost === undefined) return false;
  const type = r.headers.find((h) => h.name.toLowerCase() === "content-type")?.value ??
    r.bodyMime ?? "";
  const path = placeholderPath(`${step.name}${bodyExtension(type)}`);
  const placeholder = r.bodyBytes === undefined;
  if (!c.files.has(path)) c.files.set(path, r.bodyBytes ?? PLACEHOLDER_TEXT);
  c.uploads.push({ step: step.name, path, placeholder, omitted: false });
  step.bodyFile = path;
  const held = r.bodyBytes === undefined ? 0 : producedInside(c, r.bodyBytes);
  if (held > 0) {
    // The values are not quoted: an answer's token may be a secret.
    c.notes.push(
      `The body of step "${step.name}" is bytes that hold ${
        plural(held, "value an earlier answer", "values earlier answers")
      } produced; a flow cannot put a capture inside bytes, so it sends them as recorded and a ` +
        `fresh server may refuse it.`,
    );
  }
  return true;
}

/** The shortest produced value looked for: shorter ones stand in bytes by chance. */
const SHORTEST = 8;

/** How many distinct string values an earlier answer produced stand inside `bytes`. */
function producedInside(c: Correlator, bytes: Uint8Array): number {
  // One character per byte keeps every ASCII value where it stands, whatever frames it.
  const text = Array.from(bytes.subarray(0, 1 << 20), (b) => String.fromCharCode(b)).join("");
  let found = 0;
  for (const key of c.producers.keys()) {
    if (!key.startsWith("string:") || key.length - 7 < SHORTEST) continue;
    if (text.includes(key.slice(7)) && c.rules.producerFor(key.slice(7)) !== undefined) found++;
  }
  return found;
}
