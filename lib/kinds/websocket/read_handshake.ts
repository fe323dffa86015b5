/**
 * Reads what a `websocket:` step puts in its handshake: `headers` (a map of
 * names to values that may hold `${…}`; anchors and merge keys work as in a
 * request's headers) and `subprotocols` (a list of names).
 *
 * @module
 */
import type { Node } from "yaml";
import type { ValueTemplate } from "../../model/template.ts";
import type { KindReading } from "../kind.ts";

/** A header name: an HTTP token. */
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/**
 * The handshake headers, names lower-cased, in order; `undefined` after a problem.
 *
 * @example
 * ```ts
 * import { readHeaders } from "./read_handshake.ts";
 * if (typeof readHeaders !== "function") throw new Error();
 * ```
 */
export function readHeaders(
  node: Node | null,
  reading: KindReading,
): [string, ValueTemplate][] | undefined {
  if (node === null) return [];
  const value = reading.value(node);
  if (value === undefined) return undefined;
  const entries = entriesOf(value);
  if (!entries) {
    reading.problem(
      "wrong-type",
      `Expected "headers" of a websocket step to be a map, got ${
        JSON.stringify(reading.plain(node))
      }.`,
      node,
      'Write a map of names to values, e.g. headers: {authorization: "Bearer ${ENV.TOKEN}"}.',
    );
    return undefined;
  }
  const out: [string, ValueTemplate][] = [];
  for (const [name, header] of entries) {
    const problem = headerProblem(name, header);
    if (problem) {
      reading.problem(problem[0], problem[1], node, problem[2]);
      return undefined;
    }
    out.push([name.toLowerCase(), header]);
  }
  return out;
}

/** A map's entries, whether the loader kept it as a map or folded it into one constant. */
function entriesOf(value: ValueTemplate): [string, ValueTemplate][] | undefined {
  if (value.kind === "map") {
    // A name made by an expression is never a valid token: it keeps its `${` for the check.
    return value.entries.map(([name, v, template]) => [template?.source ?? name, v]);
  }
  const v = value.kind === "const" ? value.value : undefined;
  if (v === null || typeof v !== "object" || Array.isArray(v)) return undefined;
  return Object.entries(v).map(([name, item]) => [name, { kind: "const", value: item }]);
}

/** What is wrong with one header, as a problem's code, sentence and hint. */
function headerProblem(name: string, value: ValueTemplate): [string, string, string] | undefined {
  if (!TOKEN.test(name)) {
    return [
      "bad-header",
      `"${name}" is not a header name.`,
      "A header name is letters, digits and - (e.g. authorization, x-api-key).",
    ];
  }
  const scalar = value.kind === "template" ||
    (value.kind === "const" && ["string", "number", "boolean"].includes(typeof value.value));
  if (scalar) return undefined;
  return [
    "wrong-type",
    `Expected header "${name}" of a websocket step to be a string, got ${
      JSON.stringify(value.kind === "const" ? value.value : "a list or map")
    }.`,
    `Write it in quotes: "text".`,
  ];
}

/**
 * The subprotocols offered, in order; `undefined` after a problem.
 *
 * @example
 * ```ts
 * import { readSubprotocols } from "./read_handshake.ts";
 * if (typeof readSubprotocols !== "function") throw new Error();
 * ```
 */
export function readSubprotocols(node: Node | null, reading: KindReading): string[] | undefined {
  if (node === null) return [];
  const list = reading.plain(node);
  if (Array.isArray(list) && list.every((p) => typeof p === "string" && TOKEN.test(p))) {
    return list as string[];
  }
  reading.problem(
    "wrong-type",
    `Expected "subprotocols" of a websocket step to be a list of protocol names, got ${
      JSON.stringify(list)
    }.`,
    node,
    "Write a list of names, e.g. subprotocols: [chat.v1].",
  );
  return undefined;
}
