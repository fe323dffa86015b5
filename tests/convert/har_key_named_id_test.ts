/**
 * `convert har` on a UI that starts a job and reads it back by the small id
 * the start answered under a key naming what it is: `POST …/boards/{id}/run`
 * answers `{"data": {"runId": "1"}}` and the page reads `GET …/runs/1`. The
 * number is small (no evidence on its own) and is not under the path that
 * made it, but the key names its collection (`runId` → `runs`): the segment
 * right after that collection's name is that run. Sent as recorded, a second
 * run on the same instance reads the first run's job, gone with its board
 * (n8n's `executionId` and `/rest/executions/1`). A number after another
 * word (`/pages/1`) stays as recorded.
 */
import assert from "node:assert/strict";
import { convertHarFile, runCliTwice } from "../support/cli.ts";
import { harOf } from "../support/har_records.ts";

const API = "http://127.0.0.1:4242/api";

/** A stand-in numbering runs from 1 per instance; deleting a board deletes its runs. */
function standIn() {
  const boards = new Set<string>();
  const runs = new Map<string, string>();
  let next = 1;
  return Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    const path = new URL(req.url).pathname;
    if (req.method === "POST" && path === "/api/boards") {
      const id = crypto.randomUUID().replaceAll("-", "").slice(0, 16);
      boards.add(id);
      return Response.json({ id }, { status: 201 });
    }
    const board = /^\/api\/boards\/(\w+)(\/run)?$/.exec(path);
    if (req.method === "POST" && board?.[2] && boards.has(board[1])) {
      const runId = String(next++);
      runs.set(runId, board[1]);
      return Response.json({ data: { runId } });
    }
    if (req.method === "DELETE" && board && boards.delete(board[1])) {
      for (const [run, of] of runs) if (of === board[1]) runs.delete(run);
      return Response.json({});
    }
    const run = /^\/api\/runs\/(\d+)$/.exec(path)?.[1];
    if (run && runs.has(run)) return Response.json({ data: { id: run, board: runs.get(run) } });
    if (path === "/api/pages/1") return Response.json({ data: [] });
    return new Response(null, { status: 404 });
  });
}

Deno.test("convert har: a small id answered under a key naming its collection is read back from the answer, so a second run on the same instance passes", async () => {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-har-key-named-id-" });
  const server = standIn();
  try {
    const board = "Mapo0K1S1iROHHWN";
    const har = harOf([
      { method: "POST", url: `${API}/boards`, body: "{}", status: 201, json: { id: board } },
      {
        method: "POST",
        url: `${API}/boards/${board}/run`,
        body: "{}",
        json: { data: { runId: "1" } },
      },
      { url: `${API}/runs/1`, json: { data: { id: "1", board } } },
      { url: `${API}/pages/1`, json: { data: [] } },
      { method: "DELETE", url: `${API}/boards/${board}`, json: {} },
    ]);
    await Deno.writeTextFile(`${dir}/ui.har`, har);
    const flow = await convertHarFile(`${dir}/ui.har`, `${dir}/ui.yaml`);
    assert.match(
      flow,
      /url: \$\{vars\.base_url\}\/api\/runs\/\$\{steps\.\w+\.capture\.run_id\}\n/,
      flow,
    );
    assert.match(flow, /url: \$\{vars\.base_url\}\/api\/pages\/1\n/, flow);
    const { port } = server.addr as Deno.NetAddr;
    await runCliTwice(`${dir}/ui.yaml`, `http://127.0.0.1:${port}`, flow);
  } finally {
    await server.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});
