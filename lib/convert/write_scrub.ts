/**
 * The writer's last look for recorded secrets, over the flow's tree rather
 * than its text: only the literal text of values is searched, never a YAML
 * key, a step's name, a capture (its name or its source) or an expression
 * (`${steps.login.capture.sid}`). Masking text wholesale once wrote
 * `***: { cookie: *** }` when a session cookie's name had been taken for a
 * secret, a flow that does not load.
 *
 * @module
 */
import type { YNode, YScalar } from "./yaml_out.ts";

/** Map entries whose values are names, not data: never searched. */
const NAMES = new Set(["name", "capture", "extract", "depends_on", "path"]);

/**
 * A template's parts: literal text and whole expressions (`${…}`); `$${`
 * is literal text, as the runner reads it.
 *
 * @example
 * ```ts
 * import { templateParts } from "./write_scrub.ts";
 * const parts = templateParts("a=${steps.x.capture.y}&b=$${c}");
 * if (JSON.stringify(parts) !== '[["a=",false],["${steps.x.capture.y}",true],["&b=$${c}",false]]') {
 *   throw new Error(JSON.stringify(parts));
 * }
 * ```
 */
export function templateParts(text: string): [string, boolean][] {
  const parts: [string, boolean][] = [];
  let literal = "";
  let i = 0;
  while (i < text.length) {
    if (text.startsWith("$${", i)) {
      literal += "$${";
      i += 3;
      continue;
    }
    const end = text.startsWith("${", i) ? text.indexOf("}", i + 2) : -1;
    if (end === -1) {
      literal += text[i++];
      continue;
    }
    if (literal !== "") parts.push([literal, false]);
    literal = "";
    parts.push([text.slice(i, end + 1), true]);
    i = end + 1;
  }
  if (literal !== "") parts.push([literal, false]);
  return parts;
}

/**
 * `node` with `fix` applied to the literal text of every value that is data:
 * map keys, `name`, `capture`/`extract`, `depends_on` and JSONPath `path`
 * entries and expressions are left as they are.
 *
 * @example
 * ```ts
 * import { scrubValues } from "./write_scrub.ts";
 * import { ymap } from "./yaml_out.ts";
 * const tree = ymap([["name", "s3cr3t-step"], ["s3cr3t", "x-s3cr3t ${vars.s3cr3t}"]]);
 * const out = scrubValues(tree, (t) => t.replaceAll("s3cr3t", "***"));
 * if (JSON.stringify(out) !== '{"kind":"map","entries":[["name","s3cr3t-step"],["s3cr3t","x-*** ${vars.s3cr3t}"]]}') {
 *   throw new Error(JSON.stringify(out));
 * }
 * ```
 */
export function scrubValues(node: YNode, fix: (literal: string) => string): YNode {
  if (typeof node === "string") return scrubText(node, fix);
  if (Array.isArray(node)) return node.map((n) => scrubValues(n, fix));
  if (node === null || typeof node !== "object") return node;
  if (node.kind === "commented") return { ...node, node: scrubValues(node.node, fix) };
  if (node.kind === "flow") {
    return {
      ...node,
      entries: node.entries.map(([k, v]): [string, YScalar] =>
        NAMES.has(k) || typeof v !== "string" ? [k, v] : [k, scrubText(v, fix)]
      ),
    };
  }
  return {
    ...node,
    entries: node.entries.map(([k, v]): [string, YNode] =>
      NAMES.has(k) ? [k, v] : [k, scrubValues(v, fix)]
    ),
  };
}

/** The literal text of every data value of `node` (see {@linkcode scrubValues}). */
export function literalTexts(node: YNode): string[] {
  const out: string[] = [];
  scrubValues(node, (literal) => {
    out.push(literal);
    return literal;
  });
  return out;
}

function scrubText(text: string, fix: (literal: string) => string): string {
  return templateParts(text).map(([part, expression]) => expression ? part : fix(part)).join("");
}
