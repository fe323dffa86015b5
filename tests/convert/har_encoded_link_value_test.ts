/**
 * `convert har` on a confirmation link whose token the page wrote percent-encoded. DAViCal's web
 * admin (docs/real-servers-har.md) deletes a user or a calendar only through the link its
 * confirmation page prints, `…&subaction=delete_principal&id=1001&confirm=%2Ad5059295%2A2808…`:
 * a salt and a hash of the session, between `*`s the link escapes. The converter read the page's
 * link values decoded (`*d5059295*2808…`) but looked for that text in the page, which holds the
 * escapes, so the token was sent as recorded: the server answered 200 "please confirm" and
 * deleted nothing, and a second run on the same instance could not create the user again. A
 * value a link wrote percent-encoded is captured as written and read as the server reads a
 * query (`as: url-decoded`), whatever it escapes: `*`, or base64's `/`, `+` and `=`.
 */
import assert from "node:assert/strict";
import { runCli } from "../support/cli.ts";
import { harOf } from "../support/har_records.ts";
import { convertHar } from "./har_convert.ts";

const AT = "http://127.0.0.1:8873";

/** How a token is made: DAViCal's starred salt and hash, or base64 with its `/`, `+` and `=`. */
type Shape = "starred" | "base64";

function token(shape: Shape, n: number): string {
  const hex = (crypto.randomUUID() + n).replaceAll("-", "");
  return shape === "starred"
    ? `*${hex.slice(0, 8)}*${hex.slice(8, 40)}`
    : `a/${hex.slice(0, 20)}+b==`;
}

/** Encoded as PHP's `urlencode` does: `*` too, which `encodeURIComponent` leaves. */
const encode = (text: string) => encodeURIComponent(text).replaceAll("*", "%2A");

const page = (body: string) => `<html><body>${body}</body></html>`;
const confirmPage = (id: number, confirm: string) =>
  page(
    `<p class="error">Deleting Principal <a class="error" href="/admin.php?action=edit&amp;` +
      `subaction=delete&amp;id=${id}&amp;confirm=${encode(confirm)}">Confirm</a></p>`,
  );

/** An admin that deletes a row only with the token its confirmation page issued for it. */
function standIn(shape: Shape) {
  const rows = new Set([1]);
  const issued = new Map<number, string>();
  let next = 1001;
  let made = 0;
  const html = (body: string, status = 200) =>
    new Response(body, { status, headers: { "content-type": "text/html" } });
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    const url = new URL(req.url);
    const id = Number(url.searchParams.get("id"));
    if (req.method === "POST") {
      rows.add(next);
      return html(page(`<input type="hidden" name="principal_id" value="${next++}">Created`));
    }
    if (!rows.has(id)) return html(page("No such principal"), 404);
    const confirm = url.searchParams.get("confirm");
    if (confirm === null) {
      issued.set(id, token(shape, made++));
      return html(confirmPage(id, issued.get(id)!));
    }
    if (confirm !== issued.get(id)) return html(page("Please confirm deletion"));
    rows.delete(id);
    return html(page("Principal deleted"));
  });
  return { origin: `http://127.0.0.1:${server.addr.port}`, rows, close: () => server.shutdown() };
}

/** The journey: create a row, open its delete link, confirm by the page's link. */
function journey(shape: Shape): string {
  const recorded = token(shape, 99);
  return harOf([
    {
      method: "POST",
      url: `${AT}/admin.php?action=edit`,
      headers: [["Content-Type", "application/x-www-form-urlencoded"]],
      mime: "application/x-www-form-urlencoded",
      body: "fullname=Harbour+Master",
      html: page('<input type="hidden" name="principal_id" value="1001">Created'),
    },
    {
      url: `${AT}/admin.php?action=edit&subaction=delete&id=1001`,
      html: confirmPage(1001, recorded),
    },
    {
      url: `${AT}/admin.php?action=edit&subaction=delete&id=1001&confirm=${encode(recorded)}`,
      html: page("Principal deleted"),
    },
  ]);
}

for (const shape of ["starred", "base64"] as Shape[]) {
  Deno.test(`convert har: a token a link wrote percent-encoded (${shape}) is captured from the live link, twice on one instance`, async () => {
    const dir = await Deno.makeTempDir({ prefix: "flowrun-har-encoded-link-" });
    const server = standIn(shape);
    try {
      const { flow } = await convertHar(dir, journey(shape));
      assert.match(flow, /as: url-decoded/, flow);
      for (const run of [1, 2]) {
        const out = await runCli(["run", `${dir}/flow.yaml`], { env: { BASE_URL: server.origin } });
        assert.equal(out.code, 0, `run ${run}\n${out.stdout}\n${flow}`);
        assert.deepEqual([...server.rows], [1], `run ${run}: the row is left\n${flow}`);
      }
    } finally {
      await server.close();
      await Deno.remove(dir, { recursive: true });
    }
  });
}
