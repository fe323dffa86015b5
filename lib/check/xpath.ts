/**
 * XPath over XML and HTML bodies. XML is parsed as it is; HTML is first
 * read the way browsers read it (unclosed tags, void elements, unquoted
 * attributes) and written out as well-formed XML without a namespace, so
 * `//title` matches as people expect. The parsers and the XPath engine are
 * imported only when a run has an XPath check or capture.
 *
 * @module
 */
import { everyStep, type Flow } from "../model/flow.ts";
import {
  type GuardedTask,
  GuardError,
  MATCH_TIME_LIMIT_MS,
  prepareGuard,
  runGuarded,
} from "../_util/time_guard.ts";
import { thousands } from "../_util/thousands.ts";

/**
 * Deepest nesting of elements an XPath check reads in an XML or HTML body:
 * 1,000 levels. Deeper documents exhaust the stack of the parsers and of the
 * XPath engine (at about 3,000 levels for HTML); real pages and feeds nest a
 * few dozen levels, and browsers stop nesting HTML at 512.
 *
 * @example
 * ```ts
 * import { MAX_DOCUMENT_DEPTH } from "./xpath.ts";
 * if (MAX_DOCUMENT_DEPTH !== 1000) throw new Error();
 * ```
 */
export const MAX_DOCUMENT_DEPTH = 1000;

let task: GuardedTask | undefined;

/**
 * Loads the XML parser and the XPath engine when one of the flows needs
 * them. They run on the helper thread of lib/_util/time_guard.ts, under its time limit:
 * XPath's cost is the body's (a `//item` over 10,000 elements took 25 s),
 * and only that thread can be stopped mid-work. They are imported here too,
 * so the modules are at hand (and in a compiled binary) for that thread.
 *
 * @example
 * ```ts
 * import { prepareXPath } from "./xpath.ts";
 * await prepareXPath([]);
 * ```
 */
export async function prepareXPath(flows: readonly Flow[]): Promise<void> {
  if (task) return;
  const used = [...everyStep(flows)].some(({ step, checks }) =>
    checks.some((c) => (c.xpaths?.length ?? 0) > 0) ||
    step.captures.some((c) => c.from.kind === "xpath")
  );
  if (!used) return;
  await Promise.all([
    import("xpath"),
    import("@xmldom/xmldom"),
    import("htmlparser2"),
    import("dom-serializer"),
    prepareGuard(),
  ]);
  task = {
    name: "xpath",
    source: XPATH_SOURCE,
    imports: {
      xpath: import.meta.resolve("xpath"),
      xmldom: import.meta.resolve("@xmldom/xmldom"),
      htmlparser2: import.meta.resolve("htmlparser2"),
      serializer: import.meta.resolve("dom-serializer"),
    },
  };
}

const TOO_DEEP = `the body is nested deeper than ${
  thousands(MAX_DOCUMENT_DEPTH)
} levels, the limit for XPath`;

/**
 * The XPath task, run on the helper thread: the body parsed once (the last
 * one is kept for the next expression), its depth checked before anything
 * recursive walks it, then the expression. HTML is read the way browsers
 * read it (unclosed tags, void elements, unquoted attributes) and written
 * out as well-formed XML without a namespace, so `//title` matches as people
 * expect. The nodes are numbered in document order, so sorting a node set
 * compares two numbers; xmldom's own comparison walks the siblings, which
 * made sorting quadratic.
 */
const XPATH_SOURCE = `
const { xpath, xmldom, htmlparser2, serializer } = libs;
const parser = new xmldom.DOMParser({ onError() {} });
const compare = xmldom.Node.prototype.compareDocumentPosition;
xmldom.Node.prototype.compareDocumentPosition = function (other) {
  if (typeof this.__order === "number" && typeof other.__order === "number") {
    return other.__order < this.__order ? 2 : 4;
  }
  return compare.call(this, other);
};
function walk(root, first, next, parent, visit) {
  let node = first(root);
  let depth = 1;
  while (node) {
    if (visit(node, depth) === false) return false;
    const child = first(node);
    if (child) {
      node = child;
      depth++;
      continue;
    }
    while (node !== root && !next(node)) {
      node = parent(node);
      depth--;
    }
    if (node === root) return true;
    node = next(node);
  }
  return true;
}
const shallow = (node, depth) => !(depth > ${MAX_DOCUMENT_DEPTH} && node.nodeType === 1);
function load(text, html) {
  if (html) {
    const dom = htmlparser2.parseDocument(text);
    if (!walk(dom, (n) => n.children && n.children[0], (n) => n.next, (n) => n.parent, shallow)) {
      return { problem: ${JSON.stringify(TOO_DEEP)} };
    }
    text = serializer.default(dom, { xmlMode: true, decodeEntities: true })
      // A doctype is not XML; the rest is well-formed once written in XML mode.
      .replace(/<!doctype[^>]*>/i, "");
  }
  let doc;
  try {
    doc = parser.parseFromString(text, "text/xml");
  } catch (error) {
    if (error instanceof RangeError) return { problem: ${JSON.stringify(TOO_DEEP)} };
    throw error;
  }
  const first = (n) => n.firstChild;
  const next = (n) => n.nextSibling;
  const parent = (n) => n.parentNode;
  if (!walk(doc, first, next, parent, shallow)) return { problem: ${JSON.stringify(TOO_DEEP)} };
  let order = 0;
  doc.__order = order++;
  walk(doc, first, next, parent, (node) => {
    node.__order = order++;
  });
  return { doc };
}
let last = { id: undefined };
return ({ id, text, html, expression }) => {
  if (last.id !== id) {
    if (text === undefined) return { need: true };
    last = { id: undefined };
    last = { id, ...load(text, html) };
  }
  if (last.problem) return { found: false, why: last.problem, invalid: true };
  let result;
  try {
    result = xpath.select(expression, last.doc);
  } catch (error) {
    if (error instanceof RangeError) throw error;
    return {
      found: false,
      why: "the XPath " + JSON.stringify(expression) + " is invalid: " + error.message,
      invalid: true,
    };
  }
  if (!Array.isArray(result)) return { found: true, value: result };
  const texts = result.map((n) => n.textContent ?? n.nodeValue ?? "");
  if (texts.length === 0) return { found: false, why: expression + " matched nothing" };
  return { found: true, value: texts.length === 1 ? texts[0] : texts };
};
`;

/**
 * What an XPath expression selected: nodes as their text, or the value of a
 * function. `invalid` when there is no answer at all, not even "nothing":
 * the expression is invalid, or the body could not be read (too deep) or
 * searched in time, so `exists: false` does not pass on it.
 */
export type XPathResult =
  | { found: true; value: unknown }
  | { found: false; why: string; invalid?: boolean };

/** Each response's number, by which the helper thread knows the body it holds. */
const ids = new WeakMap<object, number>();
let nextId = 0;
/** Responses whose XPath ran out of time: the next expressions on them are not tried. */
const spent = new WeakSet<object>();

/**
 * Evaluates an XPath expression on a response body: one node gives its
 * text, several give the list of their texts, none is "nothing matched";
 * `count()`, `string()`, `boolean()` and the like give their value. Runs
 * on the helper thread, at most {@linkcode MATCH_TIME_LIMIT_MS} per
 * expression; a body nested deeper than {@linkcode MAX_DOCUMENT_DEPTH}, an
 * expression that runs out of time (the next ones on the same body are not
 * tried) or out of stack is a result that did not find, with why.
 */
export function queryXPath(
  response: { text: string; contentType?: string; spilled?: { reason: string } },
  expression: string,
): XPathResult {
  // A body kept in a temporary file (past --max-body-memory) is not parsed.
  if (response.spilled) return { found: false, why: response.spilled.reason, invalid: true };
  if (!task) {
    return {
      found: false,
      why: "the XPath engine was not loaded (run flows with runFlows)",
      invalid: true,
    };
  }
  if (spent.has(response)) {
    return {
      found: false,
      why: `not tried: an earlier XPath on the same body did not finish within ${
        MATCH_TIME_LIMIT_MS / 1000
      } s`,
      invalid: true,
    };
  }
  let id = ids.get(response);
  const known = id !== undefined;
  if (id === undefined) ids.set(response, id = nextId++);
  const html = /html/i.test(response.contentType ?? "") ||
    /^\s*(<!doctype html|<html)/i.test(response.text);
  try {
    let got = known ? guarded({ id, html, expression }) : undefined;
    if (got === undefined || "need" in got) {
      got = guarded({ id, html, expression, text: response.text });
    }
    return got as XPathResult;
  } catch (error) {
    if (!(error instanceof GuardError)) throw error;
    if (error.code === "check-timeout") spent.add(response);
    return {
      found: false,
      why: error.code === "check-timeout"
        ? `the XPath ${JSON.stringify(expression)} ${error.message} (on a large body, ` +
          "select from the root, /feed/entry[1], rather than with //)"
        : `the XPath ${JSON.stringify(expression)} could not be evaluated: ${error.message}`,
      invalid: true,
    };
  }
}

function guarded(input: object): XPathResult | { need: true } {
  return runGuarded(task!, input) as XPathResult | { need: true };
}
