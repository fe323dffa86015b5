/**
 * `convert har` on a path a response handed out and later requests sent
 * back whole, as Transmission's web UI does (tests/real/transmission_har_test.ts):
 * `session-get` answers the daemon's `download-dir` (a folder of that
 * instance), and `free-space` and `torrent-add` send it back. The value is
 * no id or token by its shape (a path), yet its provenance says it is the
 * server's: it was first seen in an answer, byte for byte, never sent
 * before. A fresh instance has another folder, so the recorded one fails
 * there. Widened to the class: the same path sent as a query value and
 * inside a JSON array; a path of plain words the server also answered
 * (`/api/items`) stays literal.
 */
import assert from "node:assert/strict";
import { runCli } from "../support/cli.ts";
import { convertHar } from "./har_convert.ts";
import { harOf } from "../support/har_records.ts";

const RECORDED = "/srv/box-3f9a1c7e52/downloads";

/** A stand-in with a folder of its own: requests naming another folder fail. */
function standIn(folder: string) {
  const errors: string[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const url = new URL(req.url);
    if (url.pathname === "/files") {
      const ok = url.searchParams.get("dir") === folder;
      if (!ok) errors.push(`GET /files?dir=${url.searchParams.get("dir")}`);
      return Response.json({ files: [] }, { status: ok ? 200 : 404 });
    }
    const call = await req.json();
    if (call.method === "session-get") {
      return Response.json({ arguments: { "download-dir": folder, home: "/api/items" } });
    }
    const sent = [call.arguments?.path, call.arguments?.["download-dir"], ...(call.params ?? [])]
      .filter((v) => typeof v === "string" && v !== "/api/items");
    const ok = sent.length > 0 && sent.every((v) => v === folder);
    if (!ok) errors.push(`${call.method} ${sent.join(" ")}`);
    return Response.json({ result: ok ? "success" : "No such file or directory" });
  });
  const origin = `http://127.0.0.1:${server.addr.port}`;
  return { origin, errors, close: () => server.shutdown() };
}

function recording(): string {
  const rpc = (body: unknown, json: unknown) => ({
    method: "POST",
    url: "http://127.0.0.1:4242/rpc",
    body: JSON.stringify(body),
    json,
  });
  return harOf([
    rpc({ method: "session-get" }, {
      arguments: { "download-dir": RECORDED, home: "/api/items" },
    }),
    rpc({ method: "free-space", arguments: { path: RECORDED } }, { result: "success" }),
    rpc(
      { method: "torrent-add", arguments: { "download-dir": RECORDED, home: "/api/items" } },
      { result: "success" },
    ),
    rpc({ method: "move", params: [RECORDED, RECORDED] }, { result: "success" }),
    { url: `http://127.0.0.1:4242/files?dir=${encodeURIComponent(RECORDED)}`, json: { files: [] } },
  ]);
}

Deno.test("convert har: a path a response handed out is captured wherever a later request sends it back whole, and the flow passes on an instance with another folder", async () => {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-har-paths-" });
  const app = standIn(`/srv/box-${crypto.randomUUID().slice(0, 10)}/downloads`);
  try {
    const { flow } = await convertHar(dir, recording());
    const sent = flow.split("\n").filter((line) => !line.trimStart().startsWith("#"));
    assert.ok(!sent.join("\n").includes("box-3f9a1c7e52"), flow);
    assert.match(flow, /download_dir: \$\.json\.arguments\['download-dir'\]/, flow);
    assert.equal(flow.match(/\$\{steps\.session_get\.capture\.download_dir\}/g)?.length, 5, flow);
    // A path of plain words is the API's, the same on every instance: sent as recorded.
    assert.match(flow, /home: \/api\/items/, flow);
    const run = await runCli(["run", `${dir}/flow.yaml`], { env: { BASE_URL: app.origin } });
    assert.equal(run.code, 0, `${run.stdout}\n${flow}`);
    assert.deepEqual(app.errors, []);
  } finally {
    await app.close();
    await Deno.remove(dir, { recursive: true });
  }
});
