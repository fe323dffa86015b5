/**
 * `convert har` on a database admin that names the open database by its
 * file's path relative to its folder (phpLiteAdmin, by hand in
 * docs/real-servers-har.md): every page and form sends
 * `?database=db%2Fharbour.sqlite`, and a form's answer redirects to the whole
 * URL of the next page (`?database=…&action=row_view&message=<hash>`). A
 * query value of a URL an answer handed out whole was a secret when shaped
 * like one, and a relative path (`db/harbour.sqlite`: words joined by `/`
 * and `.`) was: the redactor then masked it in every later literal URL, and
 * the flow sent `database=***`, with a note to review it.
 *
 * What the converter does (values.ts, `isSecretShaped`): words joined by `/`
 * are a path, never a token, like words joined by `.`, `_`, `:` or `-`; a
 * value with a run of mixed case and no other separator (a base64 part) is
 * still one, and so is the redirect's hash.
 */
import assert from "node:assert/strict";
import { formPost, htmlPage, pagesHar, passesTwice } from "../support/form_pages.ts";
import { isSecretShaped } from "../../lib/convert/values.ts";

/** Relative paths an app sends as a query value: a file, nested folders, a dated upload. */
const PATHS = ["db/harbour.sqlite", "notes/2024/tide-table.txt", "uploads/report_final.pdf"];

/** The admin: pages only of its own files; a form's answer redirects to the page with a hash. */
function adminStandIn(path: string) {
  const seen: string[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const url = new URL(req.url);
    if (req.method === "POST") await req.text();
    const file = url.searchParams.get("database");
    seen.push(`${req.method} ${file} ${url.searchParams.get("action")}`);
    if (file !== path) return htmlPage(url.origin, 404, "No such database");
    if (req.method === "POST") {
      const message = crypto.randomUUID().replaceAll("-", "");
      const q = new URLSearchParams({ database: path, action: "row_view", message });
      return htmlPage(url.origin, 302, "", `/admin.php?${q}`);
    }
    return htmlPage(url.origin, 200, `<a href="?database=${encodeURIComponent(path)}">open</a>`);
  });
  const { port } = server.addr as Deno.NetAddr;
  return { origin: `http://127.0.0.1:${port}`, seen, close: () => server.shutdown() };
}

/** Open the table, insert a row (redirected to the page with its hash), open it again. */
function recording(path: string): string {
  const db = encodeURIComponent(path);
  const back = `/admin.php?database=${db}&action=row_view&message=b542943d913d591890c60bc7741d5564`;
  const page = `<html><body><a href="?database=${db}">open</a></body></html>`;
  return pagesHar("http://127.0.0.1:3000", [
    { method: "GET", path: `/admin.php?database=${db}&action=row_view`, text: page },
    {
      method: "POST",
      path: `/admin.php?database=${db}&action=row_create&confirm=1`,
      ...formPost("note=high+water"),
      location: back,
      text: "",
    },
    { method: "GET", path: back, text: page },
    { method: "GET", path: `/admin.php?database=${db}&action=table_drop`, text: page },
  ]);
}

for (const path of PATHS) {
  Deno.test(`convert har: a relative path a handed-out URL names (${path}) is no secret, so later pages send it, twice`, async () => {
    const app = adminStandIn(path);
    try {
      await passesTwice(recording(path), app.origin, (flow, summary) => {
        assert.doesNotMatch(flow, /database=\*\*\*/, flow);
        assert.doesNotMatch(summary, /masked/, summary);
      });
      assert.ok(
        app.seen.every((s) => s.startsWith(`GET ${path} `) || s.startsWith(`POST ${path}`)),
        app.seen.join("\n"),
      );
    } finally {
      await app.close();
    }
  });
}

Deno.test("isSecretShaped: words joined by / are a path; mixed case between slashes is still a token", () => {
  for (const path of PATHS) assert.ok(!isSecretShaped(path), path);
  assert.ok(isSecretShaped("QWxhZGRpbjpvcGVu/c2VzYW1l"));
  assert.ok(isSecretShaped("aBcDeFgHiJ/kLmNoPqRsT"));
  assert.ok(isSecretShaped("b542943d913d591890c60bc7741d5564"));
});
