/**
 * `convert har` on the app's own address sent as a query value, as gitit's sign-up does
 * (docs/real-servers-har.md): the login page links `/_register?destination=http%3A%2F%2F<host>%2F`,
 * the form posts to that URL, and the server answers `303 Location: <destination>`. The value was
 * sent as recorded, so on another instance the sign-up sent the user to the recorded host, and the
 * next step met "connection refused". A URL on an origin the recording's app answers at, sent as a
 * value, is the app's own address: it follows the base URL (the rule that already held for a
 * hidden input's `redirect_to` and an OAuth `redirect_uri`).
 */
import assert from "node:assert/strict";
import { runCli } from "../support/cli.ts";
import { harOf } from "../support/har_records.ts";
import { convertHar } from "./har_convert.ts";

const AT = "http://127.0.0.1:8874";

/** A wiki whose sign-up answers with a redirect to the `destination` its URL names. */
function standIn() {
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    const url = new URL(req.url);
    if (req.method === "POST" && url.pathname === "/_register") {
      const to = url.searchParams.get("destination") ?? "/";
      return new Response(null, { status: 303, headers: { location: to } });
    }
    return new Response("<p>Front Page</p>", { headers: { "content-type": "text/html" } });
  });
  return { origin: `http://127.0.0.1:${server.addr.port}`, close: () => server.shutdown() };
}

/** The sign-up post to a URL naming the front page, then the front page it was sent to. */
function journey(): string {
  const destination = encodeURIComponent(`${AT}/`);
  const har = JSON.parse(harOf([
    {
      method: "POST",
      url: `${AT}/_register?destination=${destination}`,
      mime: "application/x-www-form-urlencoded",
      body: "username=deckhand&email=deckhand%40harbour.test&register=Register",
      status: 303,
      html: "",
    },
    { url: `${AT}/`, html: "<p>Front Page</p>" },
  ]));
  har.log.entries[0].response.headers = [{ name: "Location", value: `${AT}/` }];
  har.log.entries[0].response.redirectURL = `${AT}/`;
  return JSON.stringify(har);
}

Deno.test("convert har: the app's own URL sent as a query value follows the base URL, so its redirect leads to the instance run against", async () => {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-har-own-url-" });
  const server = standIn();
  try {
    const { flow } = await convertHar(dir, journey());
    const out = await runCli(["run", `${dir}/flow.yaml`], { env: { BASE_URL: server.origin } });
    assert.equal(out.code, 0, `${out.stdout}\n${flow}`);
    assert.match(flow, /destination=\$\{vars\.base_url\}\//, flow);
  } finally {
    await server.close();
    await Deno.remove(dir, { recursive: true });
  }
});
