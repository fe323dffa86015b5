/**
 * A text whose description says it is Base64 encoded, in words only: no
 * `format: byte` (PowerDNS's TSIG key, "The Base64 encoded secret key";
 * "the file's base64-encoded content"). It was made per run as any text of
 * a body is (`key-${RANDOM.HEX_8}`), which a base64 decoder refuses (the
 * `-`), so the create failed whatever else its body held; it is now made as
 * a `format: byte` text is. A description saying it is *not* base64, or a
 * text with a format of its own, is no such text.
 *
 * @module
 */
import type { Node } from "../../check/openapi_operations.ts";
import { saidDate } from "./said_date.ts";

const SAYS = /\bbase-?64(?:url)?[- ]?encoded\b/i;
const DENIES = /\bnot\s+(?:be\s+)?base-?64/i;

/**
 * Whether a string schema's description says its value is Base64 encoded (see the module).
 *
 * @example
 * ```ts
 * import { saysBase64 } from "./said_base64.ts";
 * if (!saysBase64({ type: "string", description: "The Base64 encoded secret key" })) throw new Error();
 * if (!saysBase64({ type: "string", description: "The file's base64-encoded content." })) throw new Error();
 * if (saysBase64({ type: "string", description: "A note, not base64 encoded." })) throw new Error();
 * if (saysBase64({ type: "string", format: "uri", description: "Base64 encoded" })) throw new Error();
 * ```
 */
export function saysBase64(s: Node): boolean {
  const d = s.description;
  return s.format === undefined && typeof d === "string" && SAYS.test(d) && !DENIES.test(d);
}

/**
 * A string schema's format: its own, else `byte` when its description says it is Base64 encoded,
 * `date` or `date-time` when it calls it a date (`said_date.ts`).
 *
 * @example
 * ```ts
 * import { textFormat } from "./said_base64.ts";
 * if (textFormat({ description: "Base64-encoded content" }) !== "byte") throw new Error();
 * if (textFormat({ description: "Date of birth" }) !== "date") throw new Error();
 * if (textFormat({ format: "uuid" }) !== "uuid" || textFormat({}) !== undefined) throw new Error();
 * ```
 */
export function textFormat(s: Node): string | undefined {
  if (typeof s.format === "string") return s.format;
  return saysBase64(s) ? "byte" : saidDate(s);
}
