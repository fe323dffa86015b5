/**
 * `convert har` on a small row id a JSON-RPC listing answered and a later call sends among its
 * positional `params`. Seen on NZBGet 21.0 (docs/real-servers-har.md): `GET
 * /jsonrpc/listgroups` answers `{"result": [{"NZBID": 1, …}]}` and `POST /jsonrpc`
 * `{"method": "editqueue", "params": ["GroupSetName", "new name", [1]]}` renames that row. The
 * `1` was sent as recorded, so a second run on the same instance edited the first run's row
 * (`result: false`). A listed row's whole-number id under an id-named key, answered by the
 * same endpoint (its path or one right below it), is now captured from the latest listing;
 * a number no listing of that endpoint gave, one listed under another key (a count), and one
 * another endpoint listed stay as recorded.
 *
 * The stand-in runs on 127.0.0.1 and numbers its rows on from the last, run after run.
 */
import assert from "node:assert/strict";
import { runCli } from "../support/cli.ts";

const RECORDED = "http://127.0.0.1:6789";

function standIn() {
  let next = 1;
  const rows = new Map<number, string>();
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const { pathname } = new URL(req.url);
    if (pathname === "/jsonrpc/listgroups") {
      const result = [...rows].map(([NZBID, NZBName]) => ({ NZBID, NZBName, FileCount: 1 }));
      return Response.json({ result });
    }
    const { method, params } = await req.json();
    if (method === "append") {
      rows.set(next, String(params[0]));
      return Response.json({ result: next++ });
    }
    const [command, name, ids] = params as [string, string, number[]];
    const known = ids.length > 0 && ids.every((id) => rows.has(id));
    if (known && command === "GroupSetName") ids.forEach((id) => rows.set(id, name));
    if (known && command === "GroupDelete") ids.forEach((id) => rows.delete(id));
    return Response.json({ result: known });
  });
  return { origin: `http://127.0.0.1:${server.addr.port}`, close: () => server.shutdown() };
}

function call(method: string, params: unknown[], result: unknown) {
  return rpc("POST", "/jsonrpc", JSON.stringify({ method, params }), { result });
}

function rpc(method: string, path: string, body: string | undefined, answer: unknown) {
  return {
    startedDateTime: new Date(Date.UTC(2026, 0, 1)).toISOString(),
    request: {
      method,
      url: `${RECORDED}${path}`,
      headers: [],
      ...(body === undefined ? {} : { postData: { mimeType: "text/plain", text: body } }),
    },
    response: {
      status: 200,
      content: { mimeType: "application/json", text: JSON.stringify(answer) },
    },
  };
}

const listing = (name: string) =>
  rpc("GET", "/jsonrpc/listgroups", undefined, {
    result: [{ NZBID: 1, NZBName: name, FileCount: 1 }],
  });

Deno.test("convert har: a row id a JSON-RPC listing gave is captured where a call sends it positionally", async () => {
  const dir = await Deno.makeTempDir();
  const server = standIn();
  try {
    await Deno.writeTextFile(
      `${dir}/in.har`,
      JSON.stringify({
        log: {
          entries: [
            call("append", ["show", "PD94bWw=", 0], 1),
            listing("show"),
            call("editqueue", ["GroupSetName", "renamed", [1]], true),
            listing("renamed"),
            call("editqueue", ["GroupDelete", "", [1]], true),
          ],
        },
      }),
    );
    const converted = await runCli(["convert", "har", `${dir}/in.har`, "-o", `${dir}/f.yaml`]);
    assert.equal(converted.code, 0, converted.stderr);
    const flow = await Deno.readTextFile(`${dir}/f.yaml`);
    // The count `FileCount: 1` and the append's `0` are no ids.
    assert.doesNotMatch(flow, /- \[1\]/, flow);
    const env = { BASE_URL: server.origin };
    for (const run of [1, 2]) {
      const ran = await runCli(["run", `${dir}/f.yaml`], { env });
      assert.equal(ran.code, 0, `run ${run}: ${ran.stdout}\n${flow}`);
    }
  } finally {
    await server.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("convert har: a number another endpoint listed, or none did, is sent as recorded", async () => {
  const { flow } = await (async () => {
    const dir = await Deno.makeTempDir();
    try {
      await Deno.writeTextFile(
        `${dir}/in.har`,
        JSON.stringify({
          log: {
            entries: [
              rpc("GET", "/other/listgroups", undefined, { result: [{ NZBID: 3 }] }),
              call("editqueue", ["GroupPause", "", [3]], true),
              call("setrate", [1], true),
            ],
          },
        }),
      );
      const out = await runCli(["convert", "har", `${dir}/in.har`]);
      assert.equal(out.code, 0, out.stderr);
      return { flow: out.stdout };
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  })();
  assert.match(flow, /- \[3\]/);
  assert.match(flow, /params: \[1\]/);
});
