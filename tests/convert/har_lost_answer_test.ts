/**
 * `convert har` on an answer the recording lost. A sign-in page posts the
 * form, stores the token the answer holds and reloads at once: Chromium
 * drops the body of an answer whose page is gone, so Playwright's HAR keeps
 * the status and no text (seen on Redis Commander 0.9.0, whose
 * `POST /signin` answers `{"ok": true, "bearerToken": …}` and whose next
 * `POST /signin` sends `Authorization: Bearer <that token>` to renew it;
 * docs/real-servers-har.md). The token the next request sent came from no
 * recorded answer, so the flow asked the user for an `API_TOKEN` nobody can
 * know, and its first step after the sign-in failed on a fresh instance.
 * A later answer of the same endpoint that was recorded shows where the
 * value lives (`bearerToken`) and where the client sends it (the same
 * header, or the same query parameter, in the same form): the lost answer
 * is read as holding the value there, so the sign-in captures it.
 *
 * The stand-in runs on 127.0.0.1 and makes new tokens on every sign-in.
 */
import assert from "node:assert/strict";
import { convertHarFile, convertHarThenRun } from "../support/cli.ts";
import { harOf } from "../support/har_records.ts";

const RECORDED = "http://127.0.0.1:8888";
const PASSWORD = "Tidal-Bracket-42";

/** Where the client sends the session's token: a header with a scheme, or a query parameter. */
type Place = { header: string; scheme: string } | { query: string };

function standIn(place: Place) {
  const live = new Set<string>();
  const mint = () => {
    const token = `tk.${crypto.randomUUID().replaceAll("-", "")}`;
    live.add(token);
    return token;
  };
  const sent = (req: Request) => {
    if ("query" in place) return new URL(req.url).searchParams.get(place.query) ?? "";
    return (req.headers.get(place.header) ?? "").replace(`${place.scheme} `, "");
  };
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const { pathname } = new URL(req.url);
    const form = req.method === "POST" ? new URLSearchParams(await req.text()) : undefined;
    if (pathname === "/signin") {
      if (form?.get("password") === PASSWORD) {
        return Response.json({ ok: true, bearerToken: mint() });
      }
      if (live.has(sent(req))) return Response.json({ ok: true, bearerToken: mint() });
      return Response.json({ ok: false });
    }
    if (!live.has(sent(req))) return new Response("Unauthorized", { status: 401 });
    return Response.json({ data: [{ name: "invoice:" }] });
  });
  const origin = `http://127.0.0.1:${server.addr.port}`;
  return { origin, close: () => server.shutdown() };
}

/** The sign-in (its answer lost), the renewal sending its token, then a read with the new one. */
function recording(place: Place, renewedSame = false): string {
  const send = (token: string) => {
    if ("query" in place) return { suffix: `?${place.query}=${token}`, headers: [] };
    return {
      suffix: "",
      headers: [[place.header, `${place.scheme} ${token}`]] as [string, string][],
    };
  };
  const first = "tk.9f1c2e7a4b6d8e0f1a2b3c4d5e6f7081";
  // A token signed from the same claims within one second comes back unchanged.
  const second = renewedSame ? first : "tk.0a9b8c7d6e5f4a3b2c1d0e9f8a7b6c5d";
  const har = JSON.parse(harOf([
    {
      method: "POST",
      url: `${RECORDED}/signin`,
      mime: "application/x-www-form-urlencoded",
      headers: [["Content-Type", "application/x-www-form-urlencoded"]],
      body: `username=admin&password=${PASSWORD}`,
    },
    {
      method: "POST",
      url: `${RECORDED}/signin${send(first).suffix}`,
      headers: send(first).headers,
      json: { ok: true, bearerToken: second },
    },
    {
      method: "GET",
      url: `${RECORDED}/apiv2/keystree/local${send(second).suffix}`,
      headers: send(second).headers,
      json: { data: [{ name: "invoice:" }] },
    },
  ]));
  // What Chromium leaves of an answer whose page reloaded: the status, no text.
  har.log.entries[0].response.content = { mimeType: "application/json", size: -1 };
  return JSON.stringify(har);
}

function convertAndRun(place: Place, renewedSame = false) {
  const har = recording(place, renewedSame);
  return convertHarThenRun(() => standIn(place), har, { LOGIN_PASSWORD: PASSWORD });
}

for (
  const [label, place, renewedSame] of [
    ["the Authorization header", { header: "Authorization", scheme: "Bearer" }, false],
    [
      "the Authorization header (renewed unchanged)",
      { header: "Authorization", scheme: "Bearer" },
      true,
    ],
    ["a header of the product's own", { header: "X-Session", scheme: "Token" }, false],
    ["a query parameter", { query: "access_token" }, false],
  ] as [string, Place, boolean][]
) {
  Deno.test(`convert har: a token a lost sign-in answer held and ${label} sent is captured where the endpoint's recorded answer holds it`, async () => {
    const { flow, run } = await convertAndRun(place, renewedSame);
    // Only the password the user typed is asked for: the token is the sign-in's.
    const asked = new Set([...flow.matchAll(/\$\{ENV\.(\w+)/g)].map((m) => m[1]));
    asked.delete("BASE_URL");
    assert.deepEqual([...asked], ["LOGIN_PASSWORD"], flow);
    assert.ok(!flow.includes("tk.9f1c2e7a"), flow);
    assert.match(flow, /bearer_token: \$\.json\.bearerToken/, flow);
    assert.match(flow, /lost/i, flow);
    assert.equal(run.code, 0, run.stdout + flow);
  });
}

Deno.test("convert har: a lost answer is not read as holding a value an earlier request already sent", async () => {
  // The token was the user's own before the sign-in (sent by an earlier request): no answer made it.
  const har = JSON.parse(recording({ header: "Authorization", scheme: "Bearer" }));
  const [signin] = har.log.entries;
  const earlier = structuredClone(har.log.entries[1]);
  earlier.request.url = `${RECORDED}/apiv2/ping`;
  earlier.startedDateTime = "2025-12-31T23:59:59.000Z";
  earlier.response.content = { mimeType: "application/json", text: "{}" };
  har.log.entries = [earlier, ...har.log.entries];
  assert.equal(har.log.entries[1], signin);
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(`${dir}/in.har`, JSON.stringify(har));
    const flow = await convertHarFile(`${dir}/in.har`, `${dir}/f.yaml`);
    const login = flow.split("  - name: ").find((step) => step.includes("password:"));
    assert.ok(login && !login.includes("capture:"), flow);
    assert.match(flow, /API_TOKEN/, flow);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
