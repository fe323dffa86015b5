/**
 * A request that sent a whole file as its body (not multipart) the
 * recording does not hold: a calendar `PUT` from a file input, a blob
 * `POST`. Browsers record the length and content type and no `postData`,
 * so the step sends `body_file:` from a placeholder beside the flow, named
 * for its content type, which the user replaces with their file (the
 * summary's uploads note says so); without it the step would send nothing
 * and fail with an answer that explains nothing.
 *
 * @module
 */
import { sentSize } from "../har_bodies.ts";
import type { HarRecord } from "../har_model.ts";
import type { Step } from "../model.ts";
import { PLACEHOLDER_TEXT, placeholderPath } from "../uploads.ts";
import type { Correlator } from "./state.ts";

/** A file's usual extension by its media type; `.bin` for any other. */
const EXTENSIONS: Record<string, string> = {
  "text/calendar": ".ics",
  "text/vcard": ".vcf",
  "text/x-vcard": ".vcf",
  "text/plain": ".txt",
  "text/csv": ".csv",
  "text/xml": ".xml",
  "application/xml": ".xml",
  "application/json": ".json",
  "application/pdf": ".pdf",
  "application/zip": ".zip",
  "image/png": ".png",
  "image/jpeg": ".jpg",
};

/**
 * The usual extension of a file of media type `type` (parameters ignored); `.bin` for any other.
 *
 * @example
 * ```ts
 * import { bodyExtension } from "./unrecorded_body.ts";
 * if (bodyExtension("image/png") !== ".png" || bodyExtension("application/x-protobuf") !== ".bin") throw new Error();
 * ```
 */
export function bodyExtension(type: string): string {
  return EXTENSIONS[type.split(";")[0].trim().toLowerCase()] ?? ".bin";
}

/**
 * Gives `step` a `body_file` placeholder when `r` sent a body of some
 * length the recording does not hold; `false` (and nothing changed) when
 * it sent none or the recording holds it.
 *
 * @example
 * ```ts
 * import { unrecordedBody } from "./unrecorded_body.ts";
 * import { newCorrelator } from "./pipeline.ts";
 * const c = newCorrelator("a");
 * const headers = [{ name: "Content-Type", value: "text/calendar" }, { name: "Content-Length", value: "230" }];
 * const r = { method: "PUT", headers, raw: { request: {} } };
 * // deno-lint-ignore no-explicit-any
 * const step = { name: "upload" } as any;
 * // deno-lint-ignore no-explicit-any
 * if (!unrecordedBody(c, r as any, step) || step.bodyFile !== "uploads/upload.ics") throw new Error();
 * ```
 */
export function unrecordedBody(c: Correlator, r: HarRecord, step: Step): boolean {
  if ((r.bodyText ?? "") !== "" || !((sentSize(r) ?? 0) > 0)) return false;
  // chrome-har writes a JSON `{}` as `postData: { params: [] }`: the body is recorded, empty.
  const request = r.raw.request as Record<string, unknown> | undefined;
  if (request?.postData != null) return false;
  const type = r.headers.find((h) => h.name.toLowerCase() === "content-type")?.value ??
    r.bodyMime ?? "";
  const path = placeholderPath(`upload${bodyExtension(type)}`);
  if (!c.files.has(path)) c.files.set(path, PLACEHOLDER_TEXT);
  c.uploads.push({ step: step.name, path, placeholder: true, omitted: false });
  step.bodyFile = path;
  return true;
}
