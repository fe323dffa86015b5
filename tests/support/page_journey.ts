/**
 * A server-rendered app's journey recorded as Chromium records it, written
 * by hand from short exchanges (a path, the login cookie sent, a form posted,
 * an HTML or JSON answer), for the stand-ins of the `convert har` tests: each
 * stand-in says only what its journey sends, and the HAR's shape stays one.
 *
 * @module
 */
import { chromiumEntry } from "./chromium_entry.ts";

const HTML = "text/html; charset=utf-8";

/** One exchange of a journey on a page of the app. */
export interface PageExchange {
  method: string;
  /** The path and query on the recorded origin. */
  path: string;
  /** 200 unless said. */
  status?: number;
  /** The `Cookie` header sent. */
  cookie?: string;
  /** The fields posted, urlencoded. */
  form?: string;
  /** An HTML answer (a document). */
  html?: string;
  /** A JSON answer (an XHR); else the answer is HTML. */
  json?: unknown;
  setCookie?: string;
  location?: string;
  /** The path of the page the browser was on: the request sends `Origin` and `Referer`. */
  referer?: string;
}

/** A form body as sent: its content type and text. */
export interface SentForm {
  mimeType: string;
  text: string;
}

/** How the journey's forms were sent; urlencoded as written unless a stand-in says otherwise. */
export type FormEncoding = (form: string) => SentForm;

const urlencoded: FormEncoding = (form) => ({
  mimeType: "application/x-www-form-urlencoded",
  text: form,
});

/** The request headers the browser sent with `x`, in Chromium's order. */
function sentHeaders(origin: string, x: PageExchange, sent?: SentForm): [string, string][] {
  return [
    ...(x.cookie ? [["Cookie", x.cookie] as [string, string]] : []),
    ...(sent ? [["Content-Type", sent.mimeType] as [string, string]] : []),
    ...(x.referer
      ? [["Origin", origin], ["Referer", `${origin}${x.referer}`]] as [string, string][]
      : []),
  ];
}

/**
 * The HAR (as text) of `exchanges` answered on `origin`, one second apart,
 * each form sent as `encode` says.
 *
 * @example
 * ```ts
 * import { pageJourneyHar } from "./page_journey.ts";
 * const har = JSON.parse(pageJourneyHar("http://127.0.0.1:8080", [
 *   { method: "GET", path: "/login", html: "<form></form>" },
 *   { method: "POST", path: "/login", referer: "/login", form: "u=a", status: 302, location: "/" },
 * ]));
 * const login = har.log.entries[1];
 * if (login.request.headers.at(-1).value !== "http://127.0.0.1:8080/login") throw new Error();
 * if (login.response.redirectURL !== "/" || login._resourceType !== "document") throw new Error();
 * ```
 */
export function pageJourneyHar(
  origin: string,
  exchanges: PageExchange[],
  encode: FormEncoding = urlencoded,
): string {
  const entries = exchanges.map((x, i) => {
    const sent = x.form ? encode(x.form) : undefined;
    const mime = x.json ? "application/json" : HTML;
    return chromiumEntry(i, {
      method: x.method,
      url: `${origin}${x.path}`,
      headers: sentHeaders(origin, x, sent),
      ...(sent ? { postData: sent } : {}),
      status: x.status ?? 200,
      mime,
      text: x.json ? JSON.stringify(x.json) : x.html ?? "",
      answered: [
        ...(x.setCookie ? [["Set-Cookie", x.setCookie] as [string, string]] : []),
        ...(x.location ? [["Location", x.location] as [string, string]] : []),
      ],
      type: x.json ? "xhr" : "document",
    });
  });
  return JSON.stringify({ log: { version: "1.2", creator: { name: "stand-in" }, entries } });
}
