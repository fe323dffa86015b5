/**
 * A body as a person reads it under a step in the console: JSON
 * pretty-printed (short lists and maps kept on one line), then cut to a
 * screen unless `-vv`, saying how much was left out.
 *
 * @module
 */
import { visible } from "./terminal.ts";
import { pluralWord } from "../_util/plural.ts";

/** Lines of a body shown under a failure without `-vv`. */
const BODY_LINES = 20;
/** Characters of a body shown under a failure without `-vv`. */
const BODY_CHARS = 2000;

/** Characters up to which a list or map stays on one line. */
const INLINE = 72;

/**
 * JSON indented by two, but a list or map that fits in {@linkcode INLINE}
 * characters stays on one line: thirty `{"id": 1}` take three lines, not ninety.
 */
function prettyJson(value: unknown, indent: string): string {
  const flat = JSON.stringify(value);
  if (typeof value !== "object" || value === null || flat.length + indent.length <= INLINE) {
    return flat;
  }
  const inner = `${indent}  `;
  if (Array.isArray(value)) {
    // Short items share lines, like a wrapped paragraph.
    const items = value.map((v) => prettyJson(v, inner));
    const lines: string[] = [];
    for (const item of items) {
      const last = lines.length - 1;
      if (
        !item.includes("\n") && last >= 0 && !lines[last].includes("\n") &&
        lines[last].length + item.length + 2 + inner.length <= INLINE
      ) lines[last] += `, ${item}`;
      else lines.push(item);
    }
    return `[\n${lines.map((l) => `${inner}${l}`).join(",\n")}\n${indent}]`;
  }
  const entries = Object.entries(value).map(([k, v]) =>
    `${inner}${JSON.stringify(k)}: ${prettyJson(v, inner)}`
  );
  return `{\n${entries.join(",\n")}\n${indent}}`;
}

/**
 * A body as a person reads it: JSON pretty-printed, then cut at
 * {@linkcode BODY_LINES} lines or {@linkcode BODY_CHARS} characters unless
 * `level` is 2 (`-vv`); `truncated` counts characters the report already left out.
 *
 * @example
 * ```ts
 * import { shownBody } from "./console_body.ts";
 * const lines = shownBody('{"id":1,"tags":["a","b"]}', 0);
 * if (lines.join("\n") !== '{"id":1,"tags":["a","b"]}') throw new Error(lines.join("\n"));
 * ```
 */
export function shownBody(body: string, level: number, truncated?: number): string[] {
  let text = body;
  try {
    text = prettyJson(JSON.parse(body), "");
  } catch {
    // Not JSON (or cut short by the report's cap): shown as it came.
  }
  const all = text.split("\n");
  const lines: string[] = [];
  let chars = 0;
  for (const line of all) {
    if (level < 2 && (lines.length === BODY_LINES || chars + line.length > BODY_CHARS)) break;
    lines.push(visible(line));
    chars += line.length + 1;
  }
  if (lines.length === 0 && all.length > 0) lines.push(visible(`${all[0].slice(0, BODY_CHARS)}…`));
  const more = all.length - lines.length;
  if (more > 0) lines.push(`… ${more} more ${pluralWord(more, "line")} (-vv shows all)`);
  if (truncated) lines.push(`… ${truncated} more characters (kept out of the reports)`);
  return lines;
}
