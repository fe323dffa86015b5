/**
 * `convert har` on a link that acts: a GET with a query that the server answers with a redirect,
 * on a server that refuses such a request unless its `Referer` is one of its own pages, as
 * Request Tracker does (docs/real-servers-har.md): its ticket's Delete link is
 * `Update.html?DefaultStatus=deleted&Status=deleted&SubmitTicket=1&id=1`, answered `302` to the
 * ticket's page, and without a `Referer` from its own site RT answers `200` "Possible cross-site
 * request forgery" and does nothing. The `Referer` was kept for unsafe methods only
 * (`referer_header.ts`, Fossil's writes), so the flow failed at the delete on every instance.
 * The evidence that a GET acts is in the recording: it sent a query, a cookie and its own
 * page's `Referer`, and was answered with a redirect; a read answered 200 keeps no `Referer`.
 */
import assert from "node:assert/strict";
import { runCli } from "../support/cli.ts";
import { type EntrySpec, harOf } from "../support/har_records.ts";
import { convertHar } from "./har_convert.ts";

const AT = "http://127.0.0.1:8873";
const SID = "c2f1d0e9b8a7f6e5d4c3b2a1";

/** A tracker with one ticket whose delete link wants a `Referer` of its own origin. */
function standIn() {
  const state = { status: "open" };
  const html = (body: string) => new Response(body, { headers: { "content-type": "text/html" } });
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    const url = new URL(req.url);
    if (url.pathname === "/prefs") {
      const headers = { location: "/", "set-cookie": `sid=${crypto.randomUUID()}` };
      return new Response(null, { status: 302, headers });
    }
    if (url.pathname === "/Ticket/Update.html") {
      const referer = req.headers.get("referer") ?? "";
      if (!referer.startsWith(`${url.origin}/`)) {
        return html("<title>Possible cross-site request forgery</title>");
      }
      state.status = url.searchParams.get("Status") ?? state.status;
      return new Response(null, {
        status: 302,
        headers: { location: `/Ticket/Display.html?id=1&results=${crypto.randomUUID()}` },
      });
    }
    return html(
      `<p>Status: ${state.status}</p><a href="/Ticket/Update.html?Status=deleted&amp;id=1">Delete</a>`,
    );
  });
  return { origin: `http://127.0.0.1:${server.addr.port}`, state, close: () => server.shutdown() };
}

/** A form post (the session cookie), the ticket, its Delete link (302), the ticket again. */
function journey(): string {
  const cookie: [string, string] = ["Cookie", `sid=${SID}`];
  const page = `${AT}/Ticket/Display.html?id=1`;
  const specs: EntrySpec[] = [
    {
      method: "POST",
      url: `${AT}/prefs`,
      mime: "application/x-www-form-urlencoded",
      body: "lang=en",
      status: 302,
      html: "",
      setCookies: [["sid", SID]],
    },
    { url: page, headers: [cookie, ["Referer", `${AT}/`]], html: "<p>Status: open</p>" },
    {
      url: `${AT}/Ticket/Update.html?Status=deleted&id=1`,
      headers: [cookie, ["Referer", page]],
      status: 302,
      html: "",
    },
    { url: `${page}&results=9f1c`, headers: [cookie, ["Referer", page]], html: "<p>deleted</p>" },
  ];
  const har = JSON.parse(harOf(specs));
  const location = "/Ticket/Display.html?id=1&results=9f1c";
  har.log.entries[0].response.headers = [{ name: "Location", value: "/" }];
  har.log.entries[0].response.redirectURL = "/";
  har.log.entries[2].response.headers = [{ name: "Location", value: location }];
  har.log.entries[2].response.redirectURL = location;
  return JSON.stringify(har);
}

Deno.test("convert har: a GET that acts (a query, answered with a redirect) keeps the page's Referer, and a server that checks it deletes", async () => {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-har-action-get-" });
  const server = standIn();
  try {
    const { flow } = await convertHar(dir, journey());
    const out = await runCli(["run", `${dir}/flow.yaml`], { env: { BASE_URL: server.origin } });
    assert.equal(out.code, 0, `${out.stdout}\n${flow}`);
    assert.equal(server.state.status, "deleted", flow);
    // Only the acting GET sends it, on the base URL, without the page's query.
    assert.equal(flow.match(/referer:/g)?.length, 1, flow);
    assert.match(flow, /referer: \$\{origin:vars\.base_url\}\/Ticket\/Display\.html\n/, flow);
  } finally {
    await server.close();
    await Deno.remove(dir, { recursive: true });
  }
});
