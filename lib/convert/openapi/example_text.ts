/**
 * A scalar example written as the other JSON type, read as the type its
 * schema asks: GererMesAffaires writes
 * `RegistrationNumber: {type: string, example: 5146486846}`, plainly the
 * text "5146486846", and `{type: integer, example: "10"}` means 10 (as
 * Schemathesis and Prism read them). A number or boolean for a text schema
 * becomes its text; a text writing a JSON number, for a number or integer
 * schema, that number. Only where the reading is faithful: an integer past
 * 2^53 or a number JSON prints with an exponent lost the digits the
 * document wrote, and a text that only looks like a number (" 10", "0x10",
 * "12,17") is not one. A text so read must also match the schema's
 * `format` where it is one this module knows: reading the document's value
 * as another type needs the schema's agreement, not only its silence.
 * Whether the read value fits the rest of the schema (pattern, lengths,
 * enum, bounds) is for `example_fits.ts` to say.
 *
 * @module
 */

/** A JSON number literal, nothing around it. */
const JSON_NUMBER = /^-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?$/;

/** What a text must look like for the formats a number's or boolean's text could meet. */
const FORMATS: Record<string, RegExp> = {
  int32: /^-?[0-9]+$/,
  int64: /^-?[0-9]+$/,
  integer: /^-?[0-9]+$/,
  number: JSON_NUMBER,
  float: JSON_NUMBER,
  double: JSON_NUMBER,
  decimal: JSON_NUMBER,
  date: /^[0-9]{4}-[0-9]{2}-[0-9]{2}$/,
  "date-time": /^[0-9]{4}-[0-9]{2}-[0-9]{2}[Tt ][0-9]{2}:[0-9]{2}/,
  time: /^[0-9]{2}:[0-9]{2}/,
  uuid: /^[0-9a-fA-F]{8}-(?:[0-9a-fA-F]{4}-){3}[0-9a-fA-F]{12}$/,
  email: /^[^@\s]+@[^@\s]+$/,
  uri: /^[A-Za-z][A-Za-z0-9+.-]*:/,
  url: /^[A-Za-z][A-Za-z0-9+.-]*:/,
  ipv4: /^(?:[0-9]{1,3}\.){3}[0-9]{1,3}$/,
  ipv6: /:/,
  byte: /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/,
};

/**
 * `value` read as the type schema `s` asks, or undefined where it is not a
 * scalar of the other type or cannot be read faithfully.
 *
 * @example
 * ```ts
 * import { readAsTyped } from "./example_text.ts";
 * if (readAsTyped(5146486846, { type: "string" }) !== "5146486846") throw new Error();
 * if (readAsTyped("10", { type: "integer" }) !== 10) throw new Error();
 * if (readAsTyped(20190130, { type: "string", format: "date" }) !== undefined) throw new Error();
 * if (readAsTyped("12,17", { type: "integer" }) !== undefined) throw new Error();
 * ```
 */
export function readAsTyped(value: unknown, s: Record<string, unknown>): unknown {
  const listed = Array.isArray(s.type) ? s.type : typeof s.type === "string" ? [s.type] : [];
  if (typeof value === "string" && (listed.includes("integer") || listed.includes("number"))) {
    const n = JSON_NUMBER.test(value) ? Number(value) : NaN;
    return faithful(n) ? n : undefined;
  }
  if (!listed.includes("string")) return undefined;
  if (typeof value === "boolean") return formatFits(String(value), s.format);
  return typeof value === "number" && faithful(value) && !/e/i.test(String(value))
    ? formatFits(String(value), s.format)
    : undefined;
}

/** Whether JavaScript holds the number as the document wrote it. */
function faithful(n: number): boolean {
  return Number.isFinite(n) && (!Number.isInteger(n) || Number.isSafeInteger(n));
}

/** The text, where the format is unknown or the text matches it. */
function formatFits(text: string, format: unknown): string | undefined {
  const shape = typeof format === "string" && Object.hasOwn(FORMATS, format)
    ? FORMATS[format]
    : undefined;
  return shape === undefined || shape.test(text) ? text : undefined;
}
