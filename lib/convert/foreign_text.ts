/**
 * Text a request sends that holds another tool's placeholder (`{{name}}`,
 * `{vars.x}`): an Elasticsearch search template's Mustache (`"{{query_string}}"`),
 * a Handlebars page, a Postman variable pasted into a curl command. flowrun
 * refuses such text as an expression written the wrong way, so a converted
 * flow did not validate; the `{` is written through a var instead, and the
 * text is sent as the command or recording gives it.
 *
 * @module
 */

import { FOREIGN_EXPRESSION } from "../load/spelling.ts";
import type { YNode } from "./yaml_out.ts";

/** The var holding a literal `{`. */
export const LBRACE_VAR = "lbrace";

const LBRACE_REF = `\${vars.${LBRACE_VAR}}`;

/** Most placeholders rewritten in one text (each rewrite removes one; bounded anyway). */
const MAX_PER_TEXT = 10_000;

/**
 * Flow text (`${` already written `$${`) with the `{` of each foreign
 * placeholder taken from the var {@linkcode LBRACE_VAR}.
 *
 * @example
 * ```ts
 * import { braceForeign } from "./foreign_text.ts";
 * if (braceForeign('{"q": "{{query_string}}"}') !== '{"q": "${vars.lbrace}{query_string}}"}') throw new Error();
 * if (braceForeign("${ENV.X} {a}") !== "${ENV.X} {a}") throw new Error();
 * ```
 */
export function braceForeign(text: string): string {
  if (!text.includes("{")) return text;
  const foreign = new RegExp(FOREIGN_EXPRESSION.source, "g");
  let out = text;
  for (let n = 0; n < MAX_PER_TEXT; n++) {
    foreign.lastIndex = 0;
    const found = foreign.exec(out);
    if (!found) break;
    out = `${out.slice(0, found.index)}${LBRACE_REF}${out.slice(found.index + 1)}`;
  }
  return out;
}

/**
 * Rewrites, in place, every string value under `node` (comments left alone)
 * with {@linkcode braceForeign}, and the keys of a `body` map too (a JSON
 * body's keys are templates: a key `${k}` was read as an expression and
 * refused), `${` in them written `$${`; whether any text reads the var now
 * (a second writing of the same nodes finds them rewritten already).
 *
 * @example
 * ```ts
 * import { braceForeignIn } from "./foreign_text.ts";
 * import { ymap } from "./yaml_out.ts";
 * const step = ymap([["body", ymap([["${k}", "{{q}}"]])]]);
 * if (!braceForeignIn([step])) throw new Error();
 * const body = step.entries[0][1] as { entries: [string, string][] };
 * if (body.entries[0][0] !== "$${k}" || body.entries[0][1] !== "${vars.lbrace}{q}}") throw new Error();
 * ```
 */
export function braceForeignIn(node: YNode): boolean {
  let reads = false;
  const stack: [YNode, boolean][] = [[node, false]];
  const fix = (value: YNode, body: boolean): YNode => {
    if (typeof value !== "string") {
      stack.push([value, body]);
      return value;
    }
    const out = braceForeign(value);
    if (out.includes(LBRACE_REF)) reads = true;
    return out;
  };
  while (stack.length > 0) {
    const [n, body] = stack.pop()!;
    if (Array.isArray(n)) n.forEach((v, i) => (n[i] = fix(v, body)));
    else if (n !== null && typeof n === "object") {
      if (n.kind === "commented") n.node = fix(n.node, body);
      else {
        for (const entry of n.entries) {
          if (body) entry[0] = fix(literalKey(entry[0]), false) as string;
          entry[1] = fix(entry[1], body || entry[0] === "body") as typeof entry[1];
        }
      }
    }
  }
  return reads;
}

/** A body key as flow text: `${` written `$${`, unless written so already or the var's own. */
function literalKey(key: string): string {
  return key.replace(/(?<!\$)\$\{(?!vars\.lbrace\})/g, "$$${");
}
