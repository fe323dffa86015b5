/**
 * A small YAML writer for converted flows. Written by hand rather than with
 * `yaml`'s `stringify` because the output is read by people: block style for
 * requests, one-line flow maps for assertions (`- { path: $.json.id, type:
 * string }`), comments above steps, and plain scalars wherever they are
 * unambiguous. Anything that is not plainly safe is written double-quoted
 * with JSON escapes (valid YAML), so the text always loads back to the same
 * values. Deterministic: the same tree gives the same bytes.
 *
 * @module
 */

/** A map with ordered entries (JS objects reorder integer-like keys). */
export interface YMap {
  kind: "map";
  entries: [string, YNode][];
}

/** A one-line flow map of scalars: `{ path: $.json.id, type: string }`. */
export interface YFlow {
  kind: "flow";
  entries: [string, YScalar][];
}

/** A list item with comment lines above it. */
export interface YCommented {
  kind: "commented";
  comments: string[];
  node: YNode;
}

/** A scalar value. */
export type YScalar = string | number | boolean | null;

/** Any node. */
export type YNode = YScalar | YNode[] | YMap | YFlow | YCommented;

/**
 * Builds a {@linkcode YMap}, skipping entries whose value is `undefined`.
 *
 * @example
 * ```ts
 * import { ymap } from "./yaml_out.ts";
 * if (ymap([["a", 1], ["b", undefined]]).entries.length !== 1) throw new Error();
 * ```
 */
export function ymap(entries: [string, YNode | undefined][]): YMap {
  return {
    kind: "map",
    entries: entries.filter((e): e is [string, YNode] => e[1] !== undefined),
  };
}

/**
 * A {@linkcode ymap} of `entries`, or `undefined` when there are none: a key such as `headers`
 * or `vars` with nothing under it is left out of the flow.
 *
 * @example
 * ```ts
 * import { ymapOf } from "./yaml_out.ts";
 * if (ymapOf([]) !== undefined || ymapOf([["a", 1]])?.entries.length !== 1) throw new Error();
 * ```
 */
export function ymapOf(entries: [string, YNode | undefined][]): YMap | undefined {
  return entries.length > 0 ? ymap(entries) : undefined;
}

const isNode = (v: unknown, kind: string): boolean =>
  typeof v === "object" && v !== null && !Array.isArray(v) &&
  (v as { kind?: string }).kind === kind;

/** Words YAML 1.1 or 1.2 would read as something other than a string. */
const SPECIAL = /^(true|false|yes|no|on|off|y|n|null|~|=|<<)$/i;

/**
 * Whether a string can be written as a plain scalar and read back as the
 * same string. In flow context (`{ … }`) the flow indicators are excluded too.
 *
 * @example
 * ```ts
 * import { isPlainSafe } from "./yaml_out.ts";
 * if (!isPlainSafe("${vars.base_url}/items", false) || isPlainSafe("${vars.x}", true)) {
 *   throw new Error();
 * }
 * if (isPlainSafe("true", false) || isPlainSafe("123", false) || isPlainSafe("a: b", false)) {
 *   throw new Error();
 * }
 * ```
 */
export function isPlainSafe(text: string, flow: boolean): boolean {
  if (text === "" || text !== text.trim() || SPECIAL.test(text)) return false;
  // Anything that starts like a number (or .inf/.nan) could resolve to one.
  if (/^[-+.]?[0-9.]|^[-+]?\.(inf|nan)$/i.test(text)) return false;
  if (/^[-?:,[\]{}#&*!|>'"%@`\s]/.test(text)) return false;
  // Control characters are matched on purpose: they must be written as escapes.
  // deno-lint-ignore no-control-regex
  if (/: |:$| #|\t|[\u0000-\u001f\u007f-\u009f\u2028\u2029\ufeff]/.test(text)) return false;
  if (flow && /[,[\]{}]/.test(text)) return false;
  // Lone surrogates cannot be written as UTF-8.
  if (!text.isWellFormed()) return false;
  return true;
}

/** A double-quoted YAML scalar: JSON escapes plus the characters YAML treats specially. */
function quoted(text: string): string {
  // Regular expressions and JSON read best without a second layer of escapes.
  if (/^[\x20-\x7e]*$/.test(text) && !text.includes("'") && /["\\]/.test(text)) return `'${text}'`;
  return JSON.stringify(text.toWellFormed()).replace(
    /[\u007f-\u009f\u2028\u2029\ufeff]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}

/**
 * One scalar as YAML text.
 *
 * @example
 * ```ts
 * import { scalar } from "./yaml_out.ts";
 * if (scalar("pending", false) !== "pending" || scalar("201", false) !== '"201"') throw new Error();
 * if (scalar(9.5, false) !== "9.5" || scalar(null, false) !== "null") throw new Error();
 * ```
 */
export function scalar(value: YScalar, flow: boolean): string {
  if (value === null) return "null";
  if (typeof value === "boolean" || typeof value === "number") return String(value);
  return isPlainSafe(value, flow) ? value : quoted(value);
}

function key(text: string): string {
  return /^[A-Za-z_][A-Za-z0-9_-]*$/.test(text) && !SPECIAL.test(text) ? text : quoted(text);
}

function flowMap(node: YFlow): string {
  if (node.entries.length === 0) return "{}";
  return `{ ${node.entries.map(([k, v]) => `${key(k)}: ${scalar(v, true)}`).join(", ")} }`;
}

/** The text after `key:` or `-` when the node fits on the same line, else `undefined`. */
function inline(node: YNode): string | undefined {
  if (node === null || typeof node !== "object") return scalar(node, false);
  if (Array.isArray(node)) {
    if (node.length === 0) return "[]";
    // Short lists of scalars read best on one line: [login, create_order].
    if (node.every((n) => n === null || typeof n !== "object")) {
      const text = `[${node.map((n) => scalar(n as YScalar, true)).join(", ")}]`;
      if (text.length <= 60) return text;
    }
    return undefined;
  }
  if (node.kind === "flow") return flowMap(node);
  if (node.kind === "map") return node.entries.length === 0 ? "{}" : undefined;
  return undefined;
}

function emitMap(node: YMap, indent: number, out: string[]): void {
  const pad = " ".repeat(indent);
  for (const [k, v] of node.entries) {
    const one = inline(v);
    if (one !== undefined) {
      out.push(`${pad}${key(k)}: ${one}`);
      continue;
    }
    out.push(`${pad}${key(k)}:`);
    emit(v, indent + 2, out);
  }
}

function emitList(node: YNode[], indent: number, out: string[]): void {
  const pad = " ".repeat(indent);
  for (let item of node) {
    if (isNode(item, "commented")) {
      const c = item as YCommented;
      for (const line of c.comments) out.push(`${pad}# ${line}`.trimEnd());
      item = c.node;
    }
    const one = inline(item);
    if (one !== undefined) {
      out.push(`${pad}- ${one}`);
    } else if (Array.isArray(item)) {
      out.push(`${pad}-`);
      emitList(item, indent + 2, out);
    } else {
      const start = out.length;
      emit(item, indent + 2, out);
      out[start] = `${pad}- ${out[start].slice(indent + 2)}`;
    }
  }
}

function emit(node: YNode, indent: number, out: string[]): void {
  if (Array.isArray(node)) emitList(node, indent, out);
  else if (isNode(node, "map")) emitMap(node as YMap, indent, out);
  else if (isNode(node, "commented")) emitList([node], indent, out);
  else out.push(" ".repeat(indent) + (inline(node) ?? "null"));
}

/**
 * A whole document: comment lines, then the map, ending with a newline.
 * Comment text is made single-line (control characters become spaces).
 *
 * @example
 * ```ts
 * import { toYaml, ymap } from "./yaml_out.ts";
 * const text = toYaml(["made by hand"], ymap([["name", "demo"], ["steps", [ymap([["name", "a"]])]]]));
 * if (text !== "# made by hand\nname: demo\nsteps:\n  - name: a\n") throw new Error(text);
 * ```
 */
export function toYaml(comments: string[], root: YMap): string {
  const out = comments.map((c) => `# ${oneLine(c)}`.trimEnd());
  emitMap(root, 0, out);
  return out.join("\n") + "\n";
}

/**
 * Comment-safe text: one line, no control characters.
 *
 * @example
 * ```ts
 * import { oneLine } from "./yaml_out.ts";
 * if (oneLine("a\r\nb") !== "a b") throw new Error();
 * ```
 */
export function oneLine(text: string): string {
  // deno-lint-ignore no-control-regex
  return text.toWellFormed().replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g, " ");
}

/**
 * A comment list item.
 *
 * @example
 * ```ts
 * import { commented, toYaml, ymap } from "./yaml_out.ts";
 * const text = toYaml([], ymap([["steps", [commented(["GET /a"], ymap([["name", "a"]]))]]]));
 * if (text !== "steps:\n  # GET /a\n  - name: a\n") throw new Error(text);
 * ```
 */
export function commented(comments: string[], node: YNode): YCommented {
  return { kind: "commented", comments: comments.map(oneLine), node };
}

/**
 * A flow map node.
 *
 * @example
 * ```ts
 * import { toYaml, yflow, ymap } from "./yaml_out.ts";
 * const text = toYaml([], ymap([["json", [yflow([["path", "$.json.id"], ["type", "string"]])]]]));
 * if (text !== "json:\n  - { path: $.json.id, type: string }\n") throw new Error(text);
 * ```
 */
export function yflow(entries: [string, YScalar][]): YFlow {
  return { kind: "flow", entries };
}
