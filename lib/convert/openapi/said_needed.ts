/**
 * An optional parameter that the document's own words say must be given.
 * Netdata's `GET /api/v1/data` marks `chart` and `context` optional, each
 * described "Note chart or context must be specified", and answers 400
 * ("No chart or context is given.") when both are left out, as the
 * converter leaves optional parameters out. A sentence of a parameter's
 * description saying it must be specified (given, provided, supplied) is
 * the evidence; when the sentence names other parameters of the operation
 * ("chart or context"), they are alternatives, and the first of them, in
 * the document's order, that the document gives a value (an example, a
 * default, an enum) is sent, the others not: one is what the server asks
 * for, and a made-up value would name nothing it has. A sentence that says
 * when ("must be given if …", "only when …") is a condition the converter
 * cannot weigh: such a parameter stays out.
 *
 * @module
 */
import { isNode, type Node } from "../../check/openapi_operations.ts";
import { deref } from "./examples.ts";
import type { OpenApiOperation } from "./operations.ts";
import { plainName } from "./required_props.ts";

/** Words after "must be provided" that say how, or what else, is given. */
const HOW = ["as", "in", "with", "using", "to", "by", "like", "via", "for", "through", "within"]
  .concat(["on", "at", "from", "into", "and", "together", "also", "along", "according", "here"]);

/**
 * "must be specified", "has to be given", "needs to be provided", ended there: "must be provided as
 * an array", "in the header", "together with x", "and equal to …" say how, or what else, not that.
 */
const NEEDED = new RegExp(
  "\\b(?:must|has to|have to|needs? to|shall) be (?:specified|given|provided|supplied|passed)\\b" +
    `(?![ \\t]+(?:${HOW.join("|")})\\b)`,
  "i",
);

/** Words that make the sentence a condition ("For VPC groups, …", "in order to update, …"). */
const CONDITION =
  /\b(?:if|when|whenever|unless|only|otherwise|except|in order)\b|^\W*(?:for|to)\b/i;

/** A sentence whose subject is the parameter itself: "This must be provided.", "It must …". */
const ITSELF =
  /^\W*(?:note:?\s+)?(?:(?:this|the)\s+(?:parameter|field|value|argument|option)|this|it)\s+(?:must|has to|needs to|shall)\b|^\W*must\b/i;

/** The first sentence of `description` saying, unconditionally, that something must be given. */
function neededSentence(description: unknown): string | undefined {
  if (typeof description !== "string") return undefined;
  return description.split(/(?<=[.!?;])\s+|\n+/).find((s) => NEEDED.test(s) && !CONDITION.test(s));
}

/** The parameter names a sentence holds, spelling aside (`chart_id` names `chartId`). */
function namesIn(sentence: string): Set<string> {
  return new Set(
    sentence.split(/[^A-Za-z0-9_.[\]-]+/).map((w) => plainName(w.replace(/\.+$/, ""))),
  );
}

/** Whether the document gives `p` a value of its own: an example, a default, an enum. */
function documentGives(doc: unknown, p: Node): boolean {
  if (Object.hasOwn(p, "example") || isNode(p.examples)) return true;
  const schema = deref(doc, p.schema);
  return isNode(schema) &&
    ["example", "examples", "default", "const", "enum"].some((k) => Object.hasOwn(schema, k));
}

/** An optional parameter outside the path: the only kind this module sends. */
function optional(p: Node): boolean {
  return p.required !== true && p.in !== "path" && typeof p.name === "string";
}

/**
 * Whether optional parameter `p` of `op` is sent because its description
 * says it must be given (see the module); a note in `comments` says why.
 *
 * @example
 * ```ts
 * import { saidNeeded } from "./said_needed.ts";
 * import type { OpenApiOperation } from "./operations.ts";
 * const note = "Note chart or context must be specified";
 * const chart = { name: "chart", in: "query", description: note, schema: { default: "system.cpu" } };
 * const context = { name: "context", in: "query", description: note, schema: { type: "string" } };
 * const op = { params: [chart, context] } as unknown as OpenApiOperation;
 * const comments: string[] = [];
 * if (!saidNeeded({}, op, chart, comments) || comments.length !== 1) throw new Error();
 * if (saidNeeded({}, op, context, [])) throw new Error();
 * ```
 */
export function saidNeeded(
  doc: unknown,
  op: OpenApiOperation,
  p: Node,
  comments: string[],
): boolean {
  if (!optional(p)) return false;
  const sentence = neededSentence(p.description);
  if (sentence === undefined) return false;
  const names = namesIn(sentence);
  // The sentence is about this parameter: it names it, or its subject is "this" or "it".
  if (!names.has(plainName(p.name as string)) && !ITSELF.test(sentence)) return false;
  // By name and place: the operation's list may hold its own copy of `p` (a `$ref` followed).
  const same = (q: Node) => q.name === p.name && q.in === p.in;
  const others = op.params.filter((q) =>
    !same(q) && optional(q) && names.has(plainName(q.name as string))
  );
  if (others.length > 0) {
    const chosen = op.params.find((q) => (same(q) || others.includes(q)) && documentGives(doc, q));
    if (!chosen || !same(chosen)) return false;
  }
  const said = others.length > 0 ? [p, ...others].map((q) => q.name).join(" or ") : "it";
  comments.push(`optional, sent: ${p.in} ${p.name} (its description says ${said} must be given)`);
  return true;
}
