/**
 * `convert har` where the user typed the address of ANOTHER service into a
 * form: Flood 4.16's first-user registration sends the torrent client's
 * `http://127.0.0.1:<port>/transmission/rpc` in its JSON body, and the app
 * calls that address. Sent as recorded, the flow passed only where that
 * service listened on the recorded port. An address on this machine or its
 * network (loopback, a private range, a one-label or `.local` host) that no
 * answer produced and that is not the recorded app's own is the
 * deployment's, so it becomes an optional variable holding the recorded
 * value, used wherever the recording sent it, and the summary says how to
 * set it. A public address (a feed on the internet) is data, kept as sent.
 */
import assert from "node:assert/strict";
import { convertHarText, convertHarThenRun } from "../support/cli.ts";
import { type EntrySpec, harOf } from "../support/har_records.ts";

const APP = "http://127.0.0.1:42871";
/** Recorded addresses of the companion service: nothing listens on them here. */
const RPC = "http://127.0.0.1:1/transmission/rpc";
const FEED = "http://192.168.7.20:2/feeds/linux.xml";
const HOOK = "http://tracker-box:3/announce";
const UPSTREAM = "http://localhost:4/api";

/** A stand-in companion service that answers every call, and counts them. */
function companion() {
  let calls = 0;
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, () => {
    calls++;
    return Response.json({ result: "success" });
  });
  const origin = `http://127.0.0.1:${(server.addr as Deno.NetAddr).port}`;
  return { origin, calls: () => calls, close: () => server.shutdown() };
}

/** Whether the service at `url` answers within a second (as an app checks what it was given). */
async function reaches(url: string | null): Promise<boolean> {
  if (!url || !URL.canParse(url)) return false;
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(1000) });
    await res.body?.cancel();
    return res.ok;
  } catch {
    return false;
  }
}

/** The app: each call hands it an address of the companion (body, form, query, header) it calls. */
function app() {
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const url = new URL(req.url);
    let target: string | null = null;
    if (url.pathname === "/api/auth/register") target = (await req.json()).client.url;
    if (url.pathname === "/api/feeds") target = (await req.formData()).get("feed_url") as string;
    if (url.pathname === "/api/announce") target = url.searchParams.get("tracker");
    if (url.pathname === "/api/proxy") target = req.headers.get("x-upstream");
    if (url.pathname === "/api/public") return Response.json({ ok: true });
    if (url.pathname === "/api/client/settings") return Response.json({ client: { url: "?" } });
    return await reaches(target)
      ? Response.json({ ok: true })
      : Response.json({ error: `cannot reach ${target}` }, { status: 502 });
  });
  const origin = `http://127.0.0.1:${(server.addr as Deno.NetAddr).port}`;
  return { origin, close: () => server.shutdown() };
}

/** The journey: the companion's address sent in a JSON body, a form, a query and a header. */
function journey(): EntrySpec[] {
  return [
    {
      method: "POST",
      url: `${APP}/api/auth/register`,
      body: JSON.stringify({ username: "ops", client: { client: "Transmission", url: RPC } }),
      json: { ok: true },
    },
    {
      method: "POST",
      url: `${APP}/api/feeds`,
      mime: "application/x-www-form-urlencoded",
      body: new URLSearchParams({ label: "Linux", feed_url: FEED }).toString(),
      json: { ok: true },
    },
    { url: `${APP}/api/announce?tracker=${encodeURIComponent(HOOK)}`, json: { ok: true } },
    { url: `${APP}/api/proxy`, headers: [["X-Upstream", UPSTREAM]], json: { ok: true } },
    // An answer echoes the saved address back; sent again after, it is still the user's, its var.
    { url: `${APP}/api/client/settings`, json: { client: { url: RPC } } },
    {
      method: "POST",
      url: `${APP}/api/auth/register`,
      body: JSON.stringify({ username: "ops2", client: { client: "Transmission", url: RPC } }),
      json: { ok: true },
    },
  ];
}

/** The optional variables of the flow's header: name → recorded value. */
function optionalVars(flow: string): Map<string, string> {
  const out = new Map<string, string>();
  const block = flow.split("# Optional, defaulting to the recorded value:\n")[1] ?? "";
  for (const line of block.split("\n")) {
    const m = /^#\s{3}(\w+)\s+.*\((.*)\)$/.exec(line);
    if (!m) break;
    out.set(m[1], m[2]);
  }
  return out;
}

Deno.test("convert har: another service's address the user typed (JSON body, form, query, header) is an optional variable, and the flow passes where that service runs elsewhere", async () => {
  const service = companion();
  try {
    const recorded = [RPC, FEED, HOOK, UPSTREAM];
    const probe = await convertHarText(harOf(journey()));
    const vars = optionalVars(probe.flow);
    const asked = [...vars].filter(([, v]) => recorded.includes(v));
    assert.deepEqual(asked.map(([, v]) => v).sort(), [...recorded].sort(), probe.flow);
    // Each value is set through its variable; none is sent as a literal any more.
    const sent = probe.flow.split("\n").filter((l) => !l.trimStart().startsWith("#"));
    for (const v of recorded) {
      const literal = sent.filter((l) => l.includes(v) || l.includes(encodeURIComponent(v)));
      assert.equal(literal.length, 1, `${v} only as its variable's default:\n${probe.flow}`);
    }
    for (const [name] of asked) assert.match(probe.summary, new RegExp(`\\b${name}\\b`));
    assert.match(probe.summary, /--var /, probe.summary);

    const live = Object.fromEntries(
      asked.map(([name, v]) => [name, `${service.origin}${new URL(v).pathname}`]),
    );
    const { run } = await convertHarThenRun(app, harOf(journey()), live);
    assert.equal(run.code, 0, `${run.stdout}${run.stderr}`);
    assert.equal(service.calls(), 5);
    // Unset, each is sent as recorded: the flow says where that service was.
    const { run: asRecorded } = await convertHarThenRun(app, harOf(journey()));
    assert.notEqual(asRecorded.code, 0);
  } finally {
    await service.close();
  }
});

Deno.test("convert har: a public address, the app's own address and one an answer gave are no variable", async () => {
  const own = `${APP}/api/feeds/7`;
  const handed = "http://127.0.0.1:9/transmission/rpc";
  const { flow } = await convertHarText(harOf([
    { url: `${APP}/api/settings`, json: { rpc: handed } },
    {
      method: "POST",
      url: `${APP}/api/public`,
      body: JSON.stringify({ feed: "https://example.com/feed.xml", self: own, rpc: handed }),
      json: { ok: true },
    },
  ]));
  assert.deepEqual([...optionalVars(flow).keys()], ["BASE_URL"], flow);
  assert.match(flow, /feed: https:\/\/example\.com\/feed\.xml/, flow);
  assert.doesNotMatch(flow, /ENV\.\w+:-http:\/\/127\.0\.0\.1:9\//, flow);
});

Deno.test("convert har: an address the page listed as an option of the field's select is the page's choice, no variable", async () => {
  // A print server's "Add Class" form lists its printers by their own addresses
  // (`<option value="ipp://localhost/printers/desk">`): the user picked one, typed none.
  const member = "ipp://localhost/printers/desk";
  const { flow, summary } = await convertHarText(harOf([
    {
      url: `${APP}/admin/add-class`,
      html: `<html><body><form method="post" action="/admin/add-class"><input name="name">` +
        `<select name="members" multiple><option value="${member}">desk</option></select>` +
        `</form></body></html>`,
    },
    {
      method: "POST",
      url: `${APP}/admin/add-class`,
      mime: "application/x-www-form-urlencoded",
      body: new URLSearchParams({ name: "front", members: member }).toString(),
      html: "<html><body>Class front has been created.</body></html>",
    },
  ]));
  assert.deepEqual([...optionalVars(flow).keys()], ["BASE_URL"], flow);
  assert.doesNotMatch(summary, /typed/, summary);
  assert.match(flow, /members: ipp:\/\/localhost\/printers\/desk\n/, flow);
});

Deno.test("convert har: an address typed into a text box stays the user's though a later page lists it as the checked option", async () => {
  const typed = "socket://127.0.0.1:1";
  const form = "application/x-www-form-urlencoded";
  const { flow } = await convertHarText(harOf([
    {
      url: `${APP}/admin/device`,
      html: `<html><body><input type="text" name="uri"></body></html>`,
    },
    {
      method: "POST",
      url: `${APP}/admin/device`,
      mime: form,
      body: `uri=${encodeURIComponent(typed)}`,
      html: "<p>ok</p>",
    },
    {
      url: `${APP}/admin/modify`,
      html: `<html><body><input type="radio" name="uri" value="${typed}" checked></body></html>`,
    },
    {
      method: "POST",
      url: `${APP}/admin/modify`,
      mime: form,
      body: `uri=${encodeURIComponent(typed)}`,
      html: "<p>ok</p>",
    },
  ]));
  assert.deepEqual(
    [...optionalVars(flow).entries()].filter(([, v]) => v === typed).length,
    1,
    flow,
  );
});
