/**
 * Which answers are pages, not the API's: what the browser navigated to
 * (unless it answered data), and a `text/html` answer that is markup. A
 * script's call (fetch or XHR) answered `text/html` with no markup is the
 * API's: Express sends any string as `text/html` (`res.send("OK")`), so
 * Federated Wiki's sign-out, `fetch('/logout')` answered `OK`, was dropped
 * as a page and the flow never signed out.
 *
 * @module
 */
import type { HarRecord } from "./har_model.ts";
import { responseHeaders } from "./handed.ts";

const isHtmlMime = (mime: string) => mime === "text/html" || mime === "application/xhtml+xml";

/**
 * Whether `r` is an HTML page (dropped unless `--include-html`).
 *
 * @example
 * ```ts
 * import { isHtmlPage } from "./html_answer.ts";
 * const call = (text: string) => ({
 *   method: "GET", status: 200, mimeType: "text/html", resourceType: "fetch", headers: [],
 *   raw: { response: { content: { mimeType: "text/html", text } } },
 * });
 * // deno-lint-ignore no-explicit-any
 * if (isHtmlPage(call("OK") as any) || !isHtmlPage(call("<p>Bye</p>") as any)) throw new Error();
 * ```
 */
export function isHtmlPage(r: HarRecord): boolean {
  return (isHtmlMime(r.mimeType) && !plainScriptAnswer(r)) ||
    (r.resourceType === "document" && !answersData(r));
}

/**
 * A fetch or XHR whose recorded answer holds no markup: a word, a sentence. Read from
 * the raw entry (bodies are decoded later, for the kept records only); an answer whose text was
 * not recorded says nothing, and the call stays a page's.
 */
function plainScriptAnswer(r: HarRecord): boolean {
  if (r.resourceType !== "fetch" && r.resourceType !== "xhr") return false;
  const content = (r.raw.response as { content?: Record<string, unknown> } | undefined)?.content;
  if (content === undefined) return false;
  let text = content.text;
  // An empty answer says nothing either way (Node-RED's `/plugins` fragments asked as HTML).
  if (typeof text !== "string" || text === "" || text.length > 4096) return false;
  if (content.encoding === "base64") {
    try {
      text = atob(text);
    } catch {
      return false;
    }
  }
  return !(text as string).includes("<");
}

/**
 * A navigation that answered JSON, not a page (json-server's `/posts` opened in a tab), or a
 * download the server marked as one (`Content-Disposition: attachment`, LoopBack's
 * `/files/notes.txt`): the API's own traffic, kept. The step checks the status only (a body that
 * is not JSON gets no checks), so a download passes whatever file an upload placeholder sent.
 * Judged by the server's word, never a file extension: a text file opened in a tab is a page.
 */
function answersData(r: HarRecord): boolean {
  if (r.status === undefined || r.status < 200 || r.status > 299) return false;
  return /^application\/([\w.+-]*\+)?json$/.test(r.mimeType) ||
    responseHeaders(r).some((h) =>
      h.name.toLowerCase() === "content-disposition" && /^\s*attachment\b/i.test(h.value)
    );
}
