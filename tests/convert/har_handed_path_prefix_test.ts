/**
 * `convert har` on a path a response handed out that later requests send
 * back extended, as Syncthing's web GUI does (tests/real/syncthing_har_test.ts):
 * `/rest/system/status` answers the instance's home folder (`tilde`), and a
 * new folder's path is that home, a slash and the label the user typed,
 * sent in the config's body and in the folder browser's query. A fresh
 * instance has another home, so the recorded path creates the folder in a
 * place that instance does not own. Widened to the class: the path inside
 * a JSON body, in a query value, and twice in one value; a value that only
 * starts with the same characters (`/srv/box-3f9a1c7e52x`) and a path of
 * words the server also answered stay literal.
 */
import assert from "node:assert/strict";
import { runCli } from "../support/cli.ts";
import { harOf } from "../support/har_records.ts";

const RECORDED = "/srv/box-3f9a1c7e52";

/** A stand-in whose home is `home`: a folder outside it is refused. */
function standIn(home: string) {
  const errors: string[] = [];
  const inside = (p: unknown) => typeof p === "string" && p.startsWith(`${home}/`);
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const url = new URL(req.url);
    if (url.pathname === "/status") return Response.json({ tilde: home, docs: "/api/items" });
    if (url.pathname === "/browse") {
      const ok = inside(url.searchParams.get("current"));
      if (!ok) errors.push(`browse ${url.searchParams.get("current")}`);
      return Response.json([], { status: ok ? 200 : 400 });
    }
    const config = await req.json();
    const paths = [config.folder.path, ...config.folder.versions.split(":")];
    const ok = paths.every(inside) && config.folder.near === `${RECORDED}x/a` &&
      config.folder.docs === "/api/items/photos";
    if (!ok) errors.push(`config ${JSON.stringify(config)}`);
    return new Response(null, { status: ok ? 200 : 400 });
  });
  const origin = `http://127.0.0.1:${server.addr.port}`;
  return { origin, errors, close: () => server.shutdown() };
}

function recording(): string {
  return harOf([
    { url: "http://127.0.0.1:8384/status", json: { tilde: RECORDED, docs: "/api/items" } },
    {
      url: `http://127.0.0.1:8384/browse?current=${encodeURIComponent(`${RECORDED}/photos`)}`,
      json: [],
    },
    {
      method: "PUT",
      url: "http://127.0.0.1:8384/config",
      body: JSON.stringify({
        folder: {
          path: `${RECORDED}/photos`,
          versions: `${RECORDED}/photos/.v:${RECORDED}/old`,
          near: `${RECORDED}x/a`,
          docs: "/api/items/photos",
        },
      }),
      status: 200,
    },
  ]);
}

Deno.test("convert har: a path an answer handed out, extended by the client, is sent as the fresh instance's path", async () => {
  const dir = await Deno.makeTempDir();
  const fresh = standIn("/srv/box-77e0d2a4b1");
  try {
    await Deno.writeTextFile(`${dir}/in.har`, recording());
    const converted = await runCli(["convert", "har", `${dir}/in.har`, "-o", `${dir}/flow.yaml`]);
    assert.equal(converted.code, 0, converted.stderr);
    const flow = await Deno.readTextFile(`${dir}/flow.yaml`);
    const sent = flow.split("\n").filter((l) => !l.trimStart().startsWith("#")).join("\n");
    assert.ok(!sent.includes(`${RECORDED}/`), flow);
    assert.ok(!sent.includes(encodeURIComponent(`${RECORDED}/`)), flow);
    assert.match(sent, /path: \$\{steps\.get_status\.capture\.tilde\}\/photos/);
    const run = await runCli(["run", `${dir}/flow.yaml`], { env: { BASE_URL: fresh.origin } });
    assert.equal(run.code, 0, `${run.stdout}\n${flow}`);
    assert.deepEqual(fresh.errors, []);
  } finally {
    await fresh.close();
    await Deno.remove(dir, { recursive: true });
  }
});
