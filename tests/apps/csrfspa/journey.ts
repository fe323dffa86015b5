/**
 * Csrfspa's journey as its page's script makes it (the CSRF token carried
 * in a header, a JSON body field, a percent-encoded query parameter and a
 * cookie, the login's `api_key` in a secret-named header), recorded as a HAR from
 * the real requests and answers (what a browser's recorder keeps: request
 * headers with the cookie, response headers, JSON bodies). Built here rather
 * than in Chromium so the test needs no browser; every value in it is one
 * the running instance produced.
 *
 * @module
 */
import { EMAIL, PASSWORD } from "./server.ts";

type NameValue = { name: string; value: string };

/** Runs the journey against `origin` and returns its HAR text. */
export async function recordJourney(origin: string): Promise<string> {
  const entries: unknown[] = [];
  let token = "";
  let cookie = "";
  let apiKey = "";
  /** One call, the token carried as the page's script carries it there. */
  const call = async (
    method: string,
    where: string,
    carry: "header" | "body" | "query" | "cookie",
    body?: Record<string, unknown>,
  ) => {
    const headers: Record<string, string> = { accept: "application/json" };
    if (token && carry === "header") headers["x-csrf-token"] = token;
    if (where === "/api/me") headers["x-api-key"] = apiKey;
    const jar = [cookie, ...(token && carry === "cookie" ? [`csrf=${token}`] : [])];
    if (jar.some((c) => c !== "")) headers["cookie"] = jar.filter((c) => c !== "").join("; ");
    const sent = token && carry === "body" ? { ...body, csrf_token: token } : body;
    if (sent !== undefined) headers["content-type"] = "application/json";
    const text = sent === undefined ? undefined : JSON.stringify(sent);
    const path = token && carry === "query" ? `${where}?_csrf=${encodeURIComponent(token)}` : where;
    const started = new Date(Date.UTC(2026, 10, 25, 12, 0, entries.length)).toISOString();
    const res = await fetch(`${origin}${path}`, { method, headers, body: text });
    const answer = await res.text();
    token = res.headers.get("x-csrf-next") ?? token;
    const setCookies = res.headers.getSetCookie().map((line) => {
      const [pair] = line.split(";");
      return { name: pair.slice(0, pair.indexOf("=")), value: pair.slice(pair.indexOf("=") + 1) };
    });
    for (const c of setCookies) cookie = `${c.name}=${c.value}`;
    const sentHeaders: NameValue[] = Object.entries(headers).map(([name, value]) => ({
      name,
      value,
    }));
    const sentCookies = (headers.cookie ?? "").split("; ").filter((c) => c !== "").map((c) => ({
      name: c.slice(0, c.indexOf("=")),
      value: c.slice(c.indexOf("=") + 1),
    }));
    entries.push({
      startedDateTime: started,
      time: 5,
      _resourceType: "fetch",
      request: {
        method,
        url: `${origin}${path}`,
        httpVersion: "HTTP/1.1",
        headers: sentHeaders,
        cookies: sentCookies,
        queryString: [...new URL(`${origin}${path}`).searchParams].map(([name, value]) => ({
          name,
          value,
        })),
        ...(text === undefined ? {} : { postData: { mimeType: "application/json", text } }),
        headersSize: -1,
        bodySize: text?.length ?? 0,
      },
      response: {
        status: res.status,
        statusText: res.statusText,
        httpVersion: "HTTP/1.1",
        headers: [...res.headers].map(([name, value]) => ({ name, value })),
        cookies: setCookies,
        content: { size: answer.length, mimeType: "application/json", text: answer },
        redirectURL: "",
        headersSize: -1,
        bodySize: answer.length,
      },
      cache: {},
      timings: { send: 1, wait: 3, receive: 1 },
    });
    if (res.status >= 400) throw new Error(`${method} ${path} answered ${res.status}: ${answer}`);
    return answer === "" ? undefined : JSON.parse(answer);
  };
  await call("GET", "/api/csrf", "header");
  const login = await call("POST", "/api/login", "header", { email: EMAIL, password: PASSWORD });
  apiKey = login.api_key;
  await call("GET", "/api/me", "header");
  const first = await call("POST", "/api/notes", "body", { title: "Buy milk" });
  await call("POST", "/api/notes", "header", { title: "Write report" });
  await call("GET", "/api/notes", "query");
  await call("GET", `/api/notes/${first.id}`, "cookie");
  await call("PATCH", `/api/notes/${first.id}`, "header", { done: true });
  await call("DELETE", `/api/notes/${first.id}`, "query");
  await call("GET", "/api/notes", "header");
  return JSON.stringify(
    {
      log: {
        version: "1.2",
        creator: { name: "csrfspa journey", version: "1" },
        pages: [],
        entries,
      },
    },
    null,
    2,
  );
}
