/**
 * The `headers` of an `sse:` step, checked when the flow loads as a
 * request's are: a name is a literal HTTP token, a constant value holds no
 * line break, NUL or character past U+00FF — each mistake one positioned
 * `bad-header` problem, before anything is sent.
 *
 * @module
 */
import type { Node } from "yaml";
import { isMap, isScalar } from "../yaml_nodes.ts";
import type { KindEntry, KindReading } from "../kind.ts";
import type { ValueTemplate } from "../../model/template.ts";

/** RFC 9110's token: the characters a header name may hold. */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/**
 * The headers map compiled, or `undefined` after problems.
 *
 * @example
 * ```ts
 * import { readHeaders } from "./read_headers.ts";
 * import type { KindEntry, KindReading } from "../kind.ts";
 * import { parseDocument } from "yaml";
 * const node = parseDocument("{x api key: k}").contents;
 * const found: string[] = [];
 * const reading = { problem: (code: string) => found.push(code), value: () => undefined } as unknown as KindReading;
 * readHeaders({ key: "headers", keyNode: node!, value: node } as KindEntry, reading);
 * if (found.join() !== "bad-header") throw new Error(found.join());
 * ```
 */
export function readHeaders(
  entry: KindEntry | undefined,
  reading: KindReading,
): ValueTemplate | undefined {
  if (!entry) return undefined;
  const map = entry.value;
  if (!isMap(map)) {
    reading.problem(
      "wrong-type",
      `Expected "headers" of an "sse" step to be a map of names to values, got ${
        describeNode(map)
      }.`,
      map ?? entry.keyNode,
      'Write headers: { authorization: "Bearer ${ENV.TOKEN}" }.',
    );
    return undefined;
  }
  let ok = true;
  for (const pair of map.items) {
    ok = nameOk(pair.key as Node, reading) &&
      valueOk(pair.key as Node, pair.value as Node, reading) &&
      ok;
  }
  return ok ? reading.value(map) : undefined;
}

/** A literal token. */
function nameOk(key: Node, reading: KindReading): boolean {
  const name = isScalar(key) ? String(key.value) : "";
  if (TOKEN.test(name)) return true;
  const expression = name.includes("${");
  reading.problem(
    "bad-header",
    `"${name}" is not a valid header name.`,
    key,
    expression
      ? "Header names are literal: write the name itself; expressions go in values."
      : `A header name holds no spaces, ":" or other separators: write "${
        name.trim().toLowerCase().replace(/[^!#$%&'*+\-.^_`|~0-9a-z]+/g, "-")
      }".`,
  );
  return false;
}

/** A constant value HTTP can carry. */
function valueOk(key: Node, value: Node | null, reading: KindReading): boolean {
  if (!isScalar(value) || typeof value.value !== "string") return true;
  const text = value.value;
  const name = isScalar(key) ? String(key.value) : "";
  const bad = [...text].find((c) =>
    c === "\r" || c === "\n" || c === "\0" || c.codePointAt(0)! > 0xff
  );
  if (bad === undefined) return true;
  const what = bad === "\r" || bad === "\n"
    ? "a line break"
    : bad === "\0"
    ? "NUL"
    : `"${bad}" (U+${bad.codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")})`;
  reading.problem(
    "bad-header",
    `The value of header "${name}" holds ${what}, which an HTTP header value cannot carry.`,
    value,
    "Header values are one line of Latin-1 text: percent-encode other text, or send it in a POST body.",
  );
  return false;
}

/** A node in words for a message: `a list`, `the value "x"`. */
export function describeNode(node: Node | null): string {
  if (isScalar(node)) return `the value ${JSON.stringify(node.value)}`;
  return node ? "a list" : "nothing";
}
