/**
 * `convert har` on chrome-har's recording of a JSON body that holds several one-item lists:
 * chrome-har writes each list as one name/value pair per item, so a client made in Glewlwyd
 * 2.7's admin (measured by hand, docs/real-servers-har.md) came back with
 * `redirect_uri: "https://…"` and `token_endpoint_auth_method: "client_secret_basic"` as
 * strings, 4 bytes short of what the browser sent, and the server answered 400: the create and
 * the 7 steps after it failed. Each of those members is a list in the recording's answers (the
 * listing after the create), and wrapping every such member gives exactly the size sent: all
 * are lists again. When the listed members are more than the bytes lost explain, nothing is
 * guessed and the body is still noted.
 */
import assert from "node:assert/strict";
import { runCli } from "../support/cli.ts";
import { chromeHarEntry } from "../support/har_records.ts";

const API = "http://127.0.0.1:4593/api";
const LISTS = ["redirect_uri", "token_endpoint_auth_method", "grants"] as const;

/** A client store that refuses a client whose list members are not lists. */
function clientServer() {
  const clients = new Map<string, Record<string, unknown>>();
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const path = new URL(req.url).pathname;
    if (req.method === "GET") return Response.json([...clients.values()]);
    const id = decodeURIComponent(path.split("/").pop() ?? "");
    if (req.method === "DELETE") {
      return clients.delete(id) ? Response.json({}) : new Response("", { status: 404 });
    }
    const body = await req.json();
    const notList = LISTS.filter((k) => k in body && !Array.isArray(body[k]));
    if (notList.length > 0) return Response.json({ invalid: notList }, { status: 400 });
    if (req.method === "POST" && clients.has(body.client_id)) {
      return new Response("", { status: 409 });
    }
    clients.set(body.client_id, body);
    return Response.json({});
  });
  const { port } = server.addr as Deno.NetAddr;
  return { origin: `http://127.0.0.1:${port}`, close: () => server.shutdown() };
}

/** The recorded journey: list, create, list, edit, delete; every body flattened by chrome-har. */
async function convert(made: Record<string, unknown>, answered = made) {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-har-flattened-several-" });
  const edited = { ...made, name: "Harbour tide app" };
  const listed = { ...answered, name: "Harbour tide app" };
  const entries = [
    chromeHarEntry("GET", `${API}/client`, []),
    chromeHarEntry("POST", `${API}/client/`, {}, made),
    chromeHarEntry("GET", `${API}/client`, [answered]),
    chromeHarEntry("PUT", `${API}/client/harbour-app`, {}, edited),
    chromeHarEntry("GET", `${API}/client`, [listed]),
    chromeHarEntry("DELETE", `${API}/client/harbour-app`, {}),
  ];
  const har = { log: { version: "1.2", creator: { name: "chrome-har", version: "1" }, entries } };
  await Deno.writeTextFile(`${dir}/ui.har`, JSON.stringify(har));
  const converted = await runCli(["convert", "har", `${dir}/ui.har`, "-o", `${dir}/ui.yaml`]);
  assert.equal(converted.code, 0, converted.stderr);
  return { dir, summary: converted.stderr, flow: await Deno.readTextFile(`${dir}/ui.yaml`) };
}

const CLIENT = {
  client_id: "harbour-app",
  name: "Harbour app",
  enabled: true,
  redirect_uri: ["https://app.harbour.test/callback"],
  token_endpoint_auth_method: ["client_secret_basic"],
  grants: [{ type: "code" }],
  authorization_type: ["code", "refresh_token"],
  response_mode: "",
};

Deno.test("convert har: every one-item list chrome-har flattened in one body is a list again when the answers list each and the size sent says so, and runs twice on one server", async () => {
  const app = clientServer();
  const { dir, summary, flow } = await convert(CLIENT);
  try {
    assert.doesNotMatch(summary, /lose JSON lists/, summary);
    for (const k of ["redirect_uri", "token_endpoint_auth_method", "grants"]) {
      assert.match(summary, new RegExp(`"${k}"`), summary);
    }
    assert.match(flow, /redirect_uri: \[https:\/\/app\.harbour\.test\/callback\]/, flow);
    assert.match(flow, /token_endpoint_auth_method: \[client_secret_basic\]/, flow);
    assert.match(flow, /grants:\n\s+- type: code/, flow);
    for (let i = 0; i < 2; i++) {
      const run = await runCli(["run", `${dir}/ui.yaml`], { env: { BASE_URL: app.origin } });
      assert.equal(run.code, 0, `run ${i + 1}: ${run.stdout}${flow}`);
    }
  } finally {
    await app.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("convert har: when more members are listed than the bytes lost explain, nothing is put back and the body is noted", async () => {
  // `tags` is sent as a plain string and answered as a list: three members could be lists, the
  // four bytes lost say two, and which two the recording does not tell.
  const sent = {
    client_id: "harbour-app",
    redirect_uri: ["https://app.harbour.test/callback"],
    token_endpoint_auth_method: ["client_secret_basic"],
    tags: "x",
  };
  const { dir, summary, flow } = await convert(sent, { ...sent, tags: ["x"] });
  await Deno.remove(dir, { recursive: true });
  assert.match(summary, /lose JSON lists/, summary);
  assert.doesNotMatch(flow, /redirect_uri: \[/, flow);
});
