/**
 * What the inside of one `${…}` refers to: one small reader per head
 * (`ENV`, `vars`, `steps`, `setup`, `RANDOM`, `NOW`, `RUN_ID`, `TRACE_ID`), a bare
 * name otherwise, and one message for anything else that says what was
 * probably meant.
 *
 * @module
 */
import type { Ref } from "../model/template.ts";
import { isName } from "../model/names.ts";
import { ExpressionSyntaxError } from "./errors.ts";
import { nowRef } from "./now.ts";

const MAX_HEX = 4096;
/** Past 15 digits a number is no longer exact (2^53). */
const MAX_DIGITS = 15;

/** Where an expression is written, for its errors. */
interface Written {
  /** The expression as written, `${…}`. */
  text: string;
  /** Offset of `${` in the template. */
  offset: number;
}

/**
 * The reference a head and the segments after it make, or undefined when
 * they are not this head's shape (then a single segment is a name, anything
 * else unknown).
 */
type RefReader = (rest: readonly string[], at: Written) => Ref | undefined;

/**
 * A `RANDOM.X` of a length (`HEX_<n>`, `ALPHA_<n>`, `UPPER_<n>`, `DIGITS_<n>`), when `name` is one
 * within its bounds.
 */
function sized(name: string): Ref | undefined {
  const m = /^(HEX|ALPHA|UPPER|DIGITS)_(\d+)$/.exec(name);
  const length = Number(m?.[2]);
  if (m?.[1] === "HEX" && length >= 1 && length <= MAX_HEX) return { kind: "random-hex", length };
  if (m?.[1] === "ALPHA" && length >= 1 && length <= MAX_HEX) {
    return { kind: "random-alpha", length };
  }
  if (m?.[1] === "UPPER" && length >= 1 && length <= MAX_HEX) {
    return { kind: "random-upper", length };
  }
  if (m?.[1] === "DIGITS" && length >= 1 && length <= MAX_DIGITS) {
    return { kind: "random-digits", length };
  }
  return undefined;
}

/**
 * `${RANDOM.UUID}`, `${RANDOM.HEX_<n>}`, `${RANDOM.ALPHA_<n>}`, `${RANDOM.UPPER_<n>}`,
 * `${RANDOM.DIGITS_<n>}` or
 * `${RANDOM.BOOL}` or `${RANDOM.PASSWORD}`; any other `RANDOM.X` is an error with a hint.
 */
function randomRef(rest: readonly string[], at: Written): Ref | undefined {
  if (rest.length !== 1) return undefined;
  const name = rest[0];
  if (name === "UUID") return { kind: "random-uuid" };
  if (name === "BOOL") return { kind: "random-bool" };
  if (name === "PASSWORD") return { kind: "random-password" };
  const ref = sized(name);
  if (ref) return ref;
  const upper = name.toUpperCase();
  throw new ExpressionSyntaxError(
    `Unknown random value "${at.text}".`,
    at.offset,
    `${
      name !== upper && (/^(UUID|BOOL|PASSWORD)$/.test(upper) || sized(upper))
        ? `Did you mean \${RANDOM.${upper}}? `
        : ""
    }Use \${RANDOM.UUID}, \${RANDOM.HEX_<n>} with n from 1 to ${MAX_HEX} (e.g. \${RANDOM.HEX_32}), ` +
      `\${RANDOM.ALPHA_<n>} (letters a to z) or \${RANDOM.UPPER_<n>} (A to Z) with n from 1 to ${MAX_HEX}, ` +
      `\${RANDOM.DIGITS_<n>} with n from 1 to ${MAX_DIGITS}, \${RANDOM.BOOL} or \${RANDOM.PASSWORD}.`,
  );
}

/** The readers by head; a Map, so that a head such as `constructor` finds nothing. */
const REF_READERS = new Map<string, RefReader>([
  ["ENV", (rest) => rest.length === 1 ? { kind: "env", name: rest[0] } : undefined],
  [
    "vars",
    (rest) =>
      rest.length === 1
        ? { kind: "var", name: rest[0] }
        : rest.length > 1
        ? { kind: "var", name: rest[0], path: rest.slice(1) }
        : undefined,
  ],
  [
    "steps",
    (rest) =>
      rest.length === 2
        ? { kind: "step", step: rest[0], key: rest[1] }
        : rest.length === 3 && rest[1] === "capture"
        ? { kind: "step", step: rest[0], key: rest[2] }
        : undefined,
  ],
  ["setup", (rest) => rest.length === 1 ? { kind: "setup", name: rest[0] } : undefined],
  ["RANDOM", randomRef],
  ["RUN_ID", (rest) => rest.length === 0 ? { kind: "run-id" } : undefined],
  ["TRACE_ID", (rest) => rest.length === 0 ? { kind: "trace-id" } : undefined],
]);

/** How each head is written, for an expression that names it wrongly. */
const HEAD_HINTS = new Map<string, string>([
  ["ENV", "Write ${ENV.NAME}."],
  ["vars", "Write ${vars.name}, or ${vars.name.field} for a field of a map var."],
  ["steps", "Write ${steps.<step>.capture.<key>} or ${steps.<step>.<key>}."],
  ["setup", "Write ${setup.NAME}: an output of the run's setup flow."],
  [
    "RANDOM",
    "Write ${RANDOM.UUID}, ${RANDOM.HEX_32}, ${RANDOM.ALPHA_8}, ${RANDOM.UPPER_8}, ${RANDOM.DIGITS_6}, ${RANDOM.BOOL} or ${RANDOM.PASSWORD}.",
  ],
  ["NOW", "Write ${NOW.UNIX}, ${NOW.UNIX_MS}, ${NOW.ISO} or ${NOW.DATE}, e.g. ${NOW.UNIX+1h}."],
]);

/**
 * Parses the inside of an expression (`steps.login.capture.token`, without
 * `${`, `}`, `raw:` or a fallback). Throws {@linkcode ExpressionSyntaxError}
 * at the expression's offset, with a hint, when it refers to nothing.
 *
 * @example
 * ```ts
 * import { parseRef } from "./ref.ts";
 * const at = { text: "${steps.login.capture.token}", offset: 0 };
 * const ref = parseRef("steps.login.capture.token", at);
 * if (ref.kind !== "step" || ref.step !== "login" || ref.key !== "token") throw new Error();
 * if (parseRef("TOKEN", at).kind !== "name") throw new Error();
 * try {
 *   parseRef("env.HOME", { text: "${env.HOME}", offset: 3 });
 *   throw new Error("expected a syntax error");
 * } catch (error) {
 *   if (!(error as Error).message.startsWith("Unknown expression")) throw error;
 * }
 * ```
 */
export function parseRef(inner: string, at: Written): Ref {
  // Before the name rule: an offset (`+1h`) is no name.
  const now = nowRef(inner, at);
  if (now) return now;
  const segments = inner.split(".");
  const bad = segments.find((s) => !isName(s));
  if (bad !== undefined) {
    throw new ExpressionSyntaxError(
      `Malformed expression "${at.text}": "${bad}" is not a valid name.`,
      at.offset,
      'Names are letters, digits, "_" and "-", joined by dots, e.g. ${vars.user_id}.',
    );
  }
  const [head, ...rest] = segments;
  const ref = REF_READERS.get(head)?.(rest, at);
  if (ref) return ref;
  if (rest.length === 0) return { kind: "name", name: head };
  throw unknownRef(head, at);
}

/** The error of an expression that refers to nothing, saying what was probably meant. */
function unknownRef(head: string, at: Written): ExpressionSyntaxError {
  // A known head in the wrong case: ${env.X}, ${Vars.x}, ${STEPS.a.b}.
  const cased = ["ENV", "vars", "steps", "RANDOM", "NOW"].find((h) =>
    h.toLowerCase() === head.toLowerCase() && h !== head
  );
  return new ExpressionSyntaxError(
    `Unknown expression "${at.text}".`,
    at.offset,
    (cased &&
      `Did you mean "\${${cased}${at.text.slice(2 + head.length, -1)}}"? ${
        HEAD_HINTS.get(cased)
      }`) ??
      HEAD_HINTS.get(head) ??
      "Expressions are ${ENV.NAME}, ${NAME}, ${vars.name}, ${steps.<step>.capture.<key>}, ${steps.<step>.<key>}, ${RANDOM.UUID}, ${RANDOM.HEX_<n>}, ${NOW.UNIX}, ${NOW.UNIX_MS}, ${NOW.ISO}, ${NOW.DATE}, ${RUN_ID} and ${TRACE_ID}.",
  );
}
