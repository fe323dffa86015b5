/**
 * `convert har` where a form sends the instance's own address without a
 * scheme: a URL shortener's create posts `domain=127.0.0.1:3701`, the host
 * the page was served from, and refuses any host it does not serve ("You
 * can't use this domain."). Sent as recorded, a run on an instance at
 * another address is refused. A value equal to the host (and port) of the
 * origin the request itself went to came from that address, whatever its
 * key: it follows the base URL as `${host:vars.base_url}`.
 */
import assert from "node:assert/strict";
import { convertHarThenRun } from "../support/cli.ts";
import { harOf } from "../support/har_records.ts";

const API = "http://127.0.0.1:3701";

/** A stand-in that makes a link only for the host it serves. */
function standIn() {
  let host = "";
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const path = new URL(req.url).pathname;
    if (req.method === "POST" && path === "/api/links") {
      const form = new URLSearchParams(await req.text());
      return form.get("domain") === host && form.get("note") === "see 127.0.0.1:3701 docs"
        ? Response.json({ ok: true }, { status: 201 })
        : Response.json({ error: `You can't use this domain: ${form.get("domain")}` }, {
          status: 400,
        });
    }
    return new Response(null, { status: 404 });
  });
  host = `127.0.0.1:${(server.addr as Deno.NetAddr).port}`;
  return { origin: `http://${host}`, close: () => server.shutdown() };
}

Deno.test("convert har: a form value that is the request's own host follows the base URL", async () => {
  const har = harOf([
    {
      method: "POST",
      url: `${API}/api/links`,
      mime: "application/x-www-form-urlencoded",
      body: "target=https%3A%2F%2Fexample.org%2Fa&domain=127.0.0.1%3A3701" +
        "&note=see+127.0.0.1%3A3701+docs",
      status: 201,
      json: { ok: true },
    },
  ]);
  const { flow, run } = await convertHarThenRun(standIn, har);
  assert.match(flow, /domain: \$\{host:vars\.base_url\}/, flow);
  // Only a whole value is the address: text that mentions it is the user's words.
  assert.match(flow, /note: see 127\.0\.0\.1:3701 docs/, flow);
  assert.equal(run.code, 0, `${run.stdout}${run.stderr}\n${flow}`);
});

Deno.test("convert har: another host's address typed in a form is kept", async () => {
  const har = harOf([
    {
      method: "POST",
      url: `${API}/api/links`,
      mime: "application/x-www-form-urlencoded",
      body: "domain=127.0.0.1%3A9999",
      status: 201,
      json: { ok: true },
    },
  ]);
  const { flow } = await convertHarThenRun(standIn, har);
  assert.doesNotMatch(flow, /\$\{host:/, flow);
});
