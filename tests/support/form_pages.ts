/**
 * The pieces of the tests of a server-rendered app's forms (a create that
 * answers 302 to the new row, a form that names what it makes): an HTML
 * answer of a stand-in, a page's HAR entry as Chromium records it, and the
 * flow converted from such a recording run twice on one stand-in.
 *
 * @module
 */
import assert from "node:assert/strict";
import { runCli } from "./cli.ts";

const HTML = "text/html; charset=utf-8";

/**
 * An HTML answer of a stand-in on `origin`: `body` in a page, and a
 * `Location` on `origin` when `location` is given.
 *
 * @example
 * ```ts
 * import { htmlPage } from "./form_pages.ts";
 * const res = htmlPage("http://127.0.0.1:1", 302, "moved", "/issues/1");
 * if (res.headers.get("location") !== "http://127.0.0.1:1/issues/1") throw new Error();
 * ```
 */
export function htmlPage(origin: string, status: number, body: string, location?: string) {
  return new Response(`<html><body>${body}</body></html>`, {
    status,
    headers: { "content-type": HTML, ...(location ? { location: `${origin}${location}` } : {}) },
  });
}

/**
 * The request parts of a recorded form post of `text` (urlencoded), to spread into a {@linkcode PageSpec}.
 *
 * @example
 * ```ts
 * import { formPost } from "./form_pages.ts";
 * if (formPost("a=1").postData.text !== "a=1") throw new Error();
 * ```
 */
export function formPost(text: string) {
  return {
    headers: [{ name: "Content-Type", value: "application/x-www-form-urlencoded" }],
    postData: { mimeType: "application/x-www-form-urlencoded", text },
  };
}

/** A page load or form post of a recording. */
export interface PageSpec {
  method: string;
  path: string;
  /** The request's headers. */
  headers?: { name: string; value: string }[];
  postData?: { mimeType: string; text: string };
  /** 302 when `location` is given, else 200, unless given. */
  status?: number;
  /** Where a redirect sends, a path on the recording's origin. */
  location?: string;
  /** The page's HTML. */
  text?: string;
}

/**
 * The HAR of `pages` recorded on `origin` one second apart, each a
 * document load with an HTML answer.
 *
 * @example
 * ```ts
 * import { pagesHar } from "./form_pages.ts";
 * const har = JSON.parse(pagesHar("http://127.0.0.1:3000", [{ method: "GET", path: "/" }]));
 * if (har.log.entries[0].response.status !== 200) throw new Error();
 * ```
 */
export function pagesHar(origin: string, pages: PageSpec[]): string {
  const entries = pages.map((e, i) => ({
    startedDateTime: new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString(),
    time: 5,
    request: {
      method: e.method,
      url: `${origin}${e.path}`,
      headers: e.headers ?? [],
      cookies: [],
      ...(e.postData ? { postData: e.postData } : {}),
    },
    response: {
      status: e.status ?? (e.location ? 302 : 200),
      headers: [
        { name: "Content-Type", value: HTML },
        ...(e.location ? [{ name: "Location", value: `${origin}${e.location}` }] : []),
      ],
      cookies: [],
      content: { mimeType: HTML, text: e.text ?? "" },
      redirectURL: e.location ? `${origin}${e.location}` : "",
    },
    _resourceType: "document",
  }));
  return JSON.stringify({ log: { version: "1.2", creator: { name: "stand-in" }, entries } });
}

/**
 * Converts `har` with the default options, has `check` read the flow and the
 * summary, and runs it twice on the stand-in at `origin` with `BASE_URL` and
 * `env` (what the summary asks that the user knows, as `LOGIN_PASSWORD`) set:
 * both runs pass.
 *
 * @example
 * ```ts ignore
 * import { passesTwice, pagesHar } from "./form_pages.ts";
 * await passesTwice(pagesHar(ORIGIN, pages), app.origin, (flow) => assert.match(flow, /RUN_ID/));
 * ```
 */
export async function passesTwice(
  har: string,
  origin: string,
  check: (flow: string, summary: string) => void,
  env: Record<string, string> = {},
): Promise<void> {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(`${dir}/app.har`, har);
    const converted = await runCli(["convert", "har", `${dir}/app.har`, "-o", `${dir}/app.yaml`]);
    assert.equal(converted.code, 0, converted.stderr);
    const flow = await Deno.readTextFile(`${dir}/app.yaml`);
    check(flow, converted.stderr);
    for (const n of [1, 2]) {
      const run = await runCli(["run", `${dir}/app.yaml`], { env: { BASE_URL: origin, ...env } });
      assert.equal(run.code, 0, `run ${n}\n${run.stdout}\n${flow}`);
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}
