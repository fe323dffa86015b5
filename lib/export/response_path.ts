/**
 * Where a flow's response path points, in the terms Artillery reads a
 * response by: the status code, a header, a place in the JSON body (as
 * JSONPath for captures and JMESPath for expectations), or the body text.
 * Only plain member chains (`$.json.items[0].id`) are translated exactly;
 * anything else has no target and the caller notes it.
 *
 * @module
 */
import type { CompiledPath } from "../model/path.ts";

/** The part of a response a path reads. */
export type Target =
  | { kind: "status" }
  | { kind: "header"; name: string }
  | { kind: "json"; chain: readonly (string | number)[] }
  | { kind: "body" };

/**
 * The target of a compiled path, or undefined when it is not a plain chain
 * into the status, a header, the JSON body or the body text.
 *
 * @example
 * ```ts
 * import { targetOf } from "./response_path.ts";
 * const t = targetOf({ source: "$.json.a[0]", root: "response", singular: true, chain: ["json", "a", 0] });
 * if (t?.kind !== "json" || t.chain.join() !== "a,0") throw new Error();
 * ```
 */
export function targetOf(path: CompiledPath): Target | undefined {
  const chain = path.chain;
  if (path.template) return undefined;
  // A dashed header name is not a plain member name, so the path compiler left it to json-p3.
  const dashed = /^\$\.headers\.([A-Za-z0-9_-]+)$/.exec(path.source);
  if (path.root === "response" && dashed) return { kind: "header", name: dashed[1].toLowerCase() };
  if (!chain) return undefined;
  if (path.root === "body") return { kind: "json", chain };
  const [first, ...rest] = chain;
  if (first === "json") return { kind: "json", chain: rest };
  if (first === "status" && rest.length === 0) return { kind: "status" };
  if (first === "body" && rest.length === 0) return { kind: "body" };
  if (first === "headers" && rest.length === 1) {
    return { kind: "header", name: String(rest[0]).toLowerCase() };
  }
  return undefined;
}

/**
 * A chain as JSONPath, which Artillery's `capture: json:` reads.
 *
 * @example
 * ```ts
 * import { jsonPathOf } from "./response_path.ts";
 * if (jsonPathOf(["a", 0, "b-c"]) !== '$.a[0]["b-c"]') throw new Error(jsonPathOf(["a", 0, "b-c"]));
 * ```
 */
export function jsonPathOf(chain: readonly (string | number)[]): string {
  return "$" +
    chain.map((key) =>
      typeof key === "number"
        ? `[${key}]`
        : /^[A-Za-z_][A-Za-z0-9_]*$/.test(key)
        ? `.${key}`
        : `[${JSON.stringify(key)}]`
    ).join("");
}

/**
 * A chain as JMESPath, which the expect plugin's `jmespath:` reads; every
 * name is a quoted identifier, so no key is read as a keyword.
 *
 * @example
 * ```ts
 * import { jmesPathOf } from "./response_path.ts";
 * if (jmesPathOf(["a", 0]) !== '"a"[0]' || jmesPathOf([]) !== "@") throw new Error();
 * ```
 */
export function jmesPathOf(chain: readonly (string | number)[]): string {
  if (chain.length === 0) return "@";
  return chain.map((key, i) =>
    typeof key === "number" ? `[${key}]` : `${i === 0 ? "" : "."}${JSON.stringify(key)}`
  ).join("");
}
