/**
 * What an XML answer hands out (WebDAV, SOAP-style APIs): an element's
 * text shaped like an id or a token that no request sent before. Each is a
 * producer read again from the fresh answer by a pattern on that element
 * (any namespace prefix), and a token of text, so it is found in a later
 * URL, header or XML body too (an XML body is sent as text).
 *
 * @module
 */
import { valueKey } from "../json.ts";
import type { Producer, Step } from "../model.ts";
import { looksLikeId, looksLikeToken } from "../values.ts";
import type { Correlator } from "./state.ts";

/** An element with text only: its local name and its text (no spaces: an id or token has none). */
const ELEMENT = /<((?:[\w.-]+:)?([\w.-]+))\b[^>]*>\s*([^<>\s]{4,200})\s*<\/\1>/g;

/** One value of an XML answer and the pattern that finds it first there. */
export interface XmlValue {
  name: string;
  value: string;
  pattern: string;
}

/**
 * The elements' texts of an XML body, each with a pattern whose first match
 * in `xml` is that text (a text a pattern would not find first is left out).
 *
 * @example
 * ```ts
 * import { xmlValues } from "./xml_producers.ts";
 * const [id] = xmlValues('<D:r xmlns:D="DAV:"><D:id>job-8f3a2c91d4</D:id></D:r>');
 * if (id.name !== "id" || new RegExp(id.pattern).exec("<id>job-1</id>")?.[1] !== "job-1") {
 *   throw new Error(JSON.stringify(id));
 * }
 * ```
 */
export function xmlValues(xml: string): XmlValue[] {
  const found: XmlValue[] = [];
  const seen = new Set<string>();
  for (const m of xml.matchAll(ELEMENT)) {
    const [, , name, value] = m;
    if (seen.has(value)) continue;
    seen.add(value);
    const pattern = `<(?:[\\w.-]+:)?${name.replaceAll(".", "\\.")}\\b[^>]*>\\s*([^<>\\s]+)\\s*</`;
    // A capture takes the first match: it must be this value in the recorded answer.
    if (new RegExp(pattern).exec(xml)?.[1] === value) found.push({ name, value, pattern });
  }
  return found;
}

/**
 * A URI whose scheme is followed by an opaque id (`opaquelocktoken:…`,
 * `urn:uuid:…`), which WebDAV and SOAP answers hand out; not a URL.
 */
function isOpaqueUri(value: string): boolean {
  const m = /^[a-z][a-z0-9+.-]*:(?:[a-z][a-z0-9+.-]*:)?([^/].*)$/i.exec(value);
  return m !== null && looksLikeId("id", m[1]);
}

/** Whether `r`'s answer is XML (by its type, or its prolog), not a page. */
function isXml(mimeType: string, text: string): boolean {
  return (/xml/i.test(mimeType) && !/html/i.test(mimeType)) || /^\s*<\?xml\b/.test(text);
}

/**
 * Records what the XML answer of `step` hands out.
 *
 * @example
 * ```ts
 * import { produceXml } from "./xml_producers.ts";
 * import { emptyCorrelator } from "./state.ts";
 * const c = emptyCorrelator("a", true);
 * const last = { mimeType: "application/xml", responseText: "<r><id>job-8f3a2c91d4</id></r>" };
 * // deno-lint-ignore no-explicit-any
 * produceXml(c, { last } as any);
 * if (c.producers.size !== 1) throw new Error();
 * ```
 */
export function produceXml(c: Correlator, step: Step): void {
  const r = step.last;
  const text = r.responseText;
  if (text === undefined || !isXml(r.mimeType, text)) return;
  for (const v of xmlValues(text)) {
    const k = valueKey(v.value);
    // A value the client sent first (a colour it chose, a name) is its own, not handed out.
    if (c.producers.has(k) || c.sentSeen.has(k) || c.apiWords.has(v.value)) continue;
    const secret = looksLikeToken(v.name, v.value);
    if (!secret && !looksLikeId(v.name, v.value) && !isOpaqueUri(v.value)) continue;
    const producer: Producer = {
      step,
      source: { kind: "regex", name: v.name, pattern: v.pattern },
      secret,
    };
    c.producers.set(k, producer);
    c.tokens.push([v.value, producer]);
    if (secret) c.secrets.add(v.value);
    c.responseSeen.add(k);
  }
}
