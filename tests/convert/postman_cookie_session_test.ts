/**
 * A login whose answer no script reads keeps its session in a cookie, and Newman keeps one
 * cookie jar for the whole run: the folders after the one that logs in send it. Each folder was
 * a flow of its own, with a jar of its own, so every request of the later folders went without
 * the session (a university project's own collection logs in in its first folder; 170 of its
 * 181 requests were answered 401 where Newman's got their 200s, 400s and 404s). The folders
 * from the login's on are now one flow; a collection that captures its token, or whose later
 * requests send credentials of their own (a sign-up, then a token in a header), keeps a flow per
 * folder.
 */
import assert from "node:assert/strict";
import { convertPostman } from "../../lib/convert/postman/mod.ts";
import { runCli } from "../support/cli.ts";

const V21 = "https://schema.getpostman.com/json/collection/v2.1.0/collection.json";

/** A collection: a folder that logs in (its test script as given), then one that reads `/me`. */
function collection(base: string, loginTests: string[]) {
  const ok = (code: number) => [`pm.test("status", () => pm.response.to.have.status(${code}));`];
  return JSON.stringify({
    info: { name: "Session", schema: V21 },
    item: [
      {
        name: "Public",
        item: [{
          name: "health",
          event: [{ listen: "test", script: { exec: ok(200) } }],
          request: { method: "GET", url: `${base}/health`, header: [] },
        }],
      },
      {
        name: "Auth",
        item: [{
          name: "login",
          event: [{ listen: "test", script: { exec: [...ok(200), ...loginTests] } }],
          request: {
            method: "POST",
            url: `${base}/login`,
            header: [{ key: "Content-Type", value: "application/json" }],
            body: { mode: "raw", raw: '{"email": "ann@example.com", "password": "ann"}' },
          },
        }],
      },
      {
        name: "Profile",
        item: [{
          name: "me",
          event: [{ listen: "test", script: { exec: ok(200) } }],
          request: { method: "GET", url: `${base}/me`, header: [] },
        }],
      },
    ],
  });
}

Deno.test("postman cookie session: the folders after a login whose answer nothing reads send its cookie, as Newman's one jar does", async () => {
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    const path = new URL(req.url).pathname;
    if (path === "/login") {
      return Response.json({ id: 1 }, { headers: { "set-cookie": "token=t-1; Path=/" } });
    }
    if (path === "/me" && req.headers.get("cookie") !== "token=t-1") {
      return Response.json({ error: "login first" }, { status: 401 });
    }
    return Response.json({ id: 1 });
  });
  const dir = await Deno.makeTempDir();
  try {
    const { files, summary } = convertPostman(
      collection(`http://127.0.0.1:${server.addr.port}`, []),
    );
    assert.deepEqual(summary.flows.map((f) => f.steps), [1, 2]);
    for (const f of files) await Deno.writeTextFile(`${dir}/${f.path}`, f.text);
    const run = await runCli(["run", dir, "--jobs", "1"]);
    assert.equal(run.code, 0, run.stdout + run.stderr);
  } finally {
    await server.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("postman cookie session: a login whose token a script keeps leaves a flow per folder", () => {
  const { summary } = convertPostman(collection("http://127.0.0.1:9", [
    'pm.environment.set("token", pm.response.json().token);',
  ]));
  assert.deepEqual(summary.flows.map((f) => f.steps), [1, 1, 1]);
});

Deno.test("postman cookie session: a sign-up before requests that send their own credentials leaves a flow per folder", () => {
  const c = JSON.parse(collection("http://127.0.0.1:9", []));
  c.item[2].item[0].request.header = [{ key: "Authorization", value: "Token {{token}}" }];
  const { summary } = convertPostman(JSON.stringify(c));
  assert.deepEqual(summary.flows.map((f) => f.steps), [1, 1, 1]);
});
