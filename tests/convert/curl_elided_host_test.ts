/**
 * `convert curl`: a URL whose host the docs leave out. An issue tracker's REST page writes every
 * example against `https://.../demo/rest/data/issue` (the reader's tracker), and so every
 * command was refused: "No curl command in the input sends an http(s) request". An ellipsis
 * where the host goes (`...` or `…`, after the scheme) is the reader's address, as
 * `https://<tracker>/…` and `http://host:port/…` are: the origin becomes the variable
 * `BASE_URL` to set, the path is kept. Pages written here in our own words.
 */
import assert from "node:assert/strict";
import { convertCurl } from "../../lib/convert/curl.ts";
import { withCurlFlow } from "../support/curl_run.ts";

/** A create and a read on a tracker whose address is written `origin`. */
const page = (origin: string) =>
  [
    "Create an issue::",
    "",
    "  curl -s -X POST -H 'Content-Type: application/json' \\",
    `      --data '{"title": "a problem"}' ${origin}/demo/rest/data/issue`,
    "",
    "List them::",
    "",
    `  curl -s ${origin}/demo/rest/data/issue`,
    "",
  ].join("\n");

Deno.test("an ellipsis for the host is the reader's address, one variable", () => {
  for (const origin of ["https://...", "https://…", "http://..."]) {
    const { yaml, summary } = convertCurl(page(origin));
    assert.deepEqual(summary.env, ["BASE_URL"], yaml);
    assert.equal(summary.steps, 2, yaml);
    assert.match(yaml, /url: \$\{vars\.base_url\}\/demo\/rest\/data\/issue\n/, yaml);
  }
});

Deno.test("a host that is a word with dots is still a host", () => {
  const { yaml } = convertCurl(page("https://a...b.test"));
  assert.doesNotMatch(yaml, /ENV\.BASE_URL\}/, yaml);
});

Deno.test("the flow reaches the tracker the reader names", async () => {
  const seen: string[] = [];
  await using server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    (req) => {
      seen.push(`${req.method} ${new URL(req.url).pathname}`);
      return Response.json({ data: { id: "1" } }, { status: req.method === "POST" ? 201 : 200 });
    },
  );
  await withCurlFlow(page("https://..."), async ({ runFlow }) => {
    const run = await runFlow({ BASE_URL: `http://127.0.0.1:${server.addr.port}` });
    assert.equal(run.code, 0, run.stdout + run.stderr);
  }, { docs: "rest.txt" });
  assert.deepEqual(seen, ["POST /demo/rest/data/issue", "GET /demo/rest/data/issue"]);
});
