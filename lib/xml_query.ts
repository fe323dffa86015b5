/**
 * XPath over XML and HTML bodies. XML is parsed as it is; HTML is first
 * read the way browsers read it (unclosed tags, void elements, unquoted
 * attributes) and written out as well-formed XML without a namespace, so
 * `//title` matches as people expect. The parsers and the XPath engine are
 * imported only when a run has an XPath check or capture.
 *
 * @module
 */
import { everyStep, type Flow } from "./flow.ts";

type Libraries = {
  select: (expression: string, node: unknown) => unknown;
  parseXml: (text: string) => unknown;
  htmlToXml: (html: string) => string;
};

let libraries: Libraries | undefined;

/**
 * Loads the XML parser and the XPath engine when one of the flows needs them.
 *
 * @example
 * ```ts
 * import { prepareXPath } from "./xml_query.ts";
 * await prepareXPath([]);
 * ```
 */
export async function prepareXPath(flows: readonly Flow[]): Promise<void> {
  if (libraries) return;
  const used = [...everyStep(flows)].some(({ step, checks }) =>
    checks.some((c) => (c.xpaths?.length ?? 0) > 0) ||
    step.captures.some((c) => c.from.kind === "xpath")
  );
  if (!used) return;
  const [xpath, xmldom, htmlparser2, serializer] = await Promise.all([
    import("xpath"),
    import("@xmldom/xmldom"),
    import("htmlparser2"),
    import("dom-serializer"),
  ]);
  const parser = new xmldom.DOMParser({ onError() {} });
  libraries = {
    select: (expression, node) => xpath.select(expression, node as never),
    parseXml: (text) => parser.parseFromString(text, "text/xml"),
    htmlToXml: (html) =>
      serializer.default(htmlparser2.parseDocument(html), { xmlMode: true, decodeEntities: true })
        // A doctype is not XML; the rest is well-formed once written in XML mode.
        .replace(/<!doctype[^>]*>/i, ""),
  };
}

/** What an XPath expression selected: nodes as their text, or the value of a function. */
export type XPathResult =
  | { found: true; value: unknown }
  | { found: false; why: string; invalid?: boolean };

const documents = new WeakMap<object, unknown>();

/**
 * Evaluates an XPath expression on a response body: one node gives its
 * text, several give the list of their texts, none is "nothing matched";
 * `count()`, `string()`, `boolean()` and the like give their value.
 */
export function queryXPath(
  response: { text: string; contentType?: string; spilled?: { reason: string } },
  expression: string,
): XPathResult {
  if (response.spilled) return { found: false, why: response.spilled.reason, invalid: true };
  if (!libraries) {
    return {
      found: false,
      why: "the XPath engine was not loaded (run flows with runFlows)",
      invalid: true,
    };
  }
  let doc = documents.get(response);
  if (doc === undefined) {
    const html = /html/i.test(response.contentType ?? "") ||
      /^\s*(<!doctype html|<html)/i.test(response.text);
    doc = libraries.parseXml(html ? libraries.htmlToXml(response.text) : response.text);
    documents.set(response, doc);
  }
  let result: unknown;
  try {
    result = libraries.select(expression, doc);
  } catch (error) {
    return {
      found: false,
      why: `the XPath "${expression}" is invalid: ${(error as Error).message}`,
      invalid: true,
    };
  }
  if (!Array.isArray(result)) return { found: true, value: result };
  const texts = result.map((n: { textContent?: string | null; nodeValue?: string | null }) =>
    n.textContent ?? n.nodeValue ?? ""
  );
  if (texts.length === 0) return { found: false, why: `${expression} matched nothing` };
  return { found: true, value: texts.length === 1 ? texts[0] : texts };
}
