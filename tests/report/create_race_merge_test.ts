/**
 * `merge` says the same of a refused create as a run does. Shards of one
 * suite run one after another on one CI machine, or at once on several,
 * against one server; the merged coverage lines advised `--jobs 1` against
 * two overlapping creates whatever the shards' times said, since the merge
 * did not read them. The merged flows keep each flow's start and wall time,
 * so whether two flows of any shard ran at once is known there too. A
 * document of two creates, each its own flow, is converted and run as two
 * shards, one after the other, against a stand-in on 127.0.0.1 that refuses
 * every create 500; the shards are merged as they are, then with one flow's
 * start moved inside the other's.
 */
import assert from "node:assert/strict";
import { runCli } from "../support/cli.ts";
import { serveStandIn } from "../support/openapi_suite.ts";

const json = (schema: unknown) => ({ content: { "application/json": { schema } } });
const note = { type: "object", required: ["title"], properties: { title: { type: "string" } } };
const create = (tag: string) => ({
  post: {
    tags: [tag],
    requestBody: json(note),
    responses: { 201: { description: "Made", ...json(note) } },
  },
});
const document = {
  openapi: "3.0.0",
  info: { title: "refused", version: "1" },
  paths: { "/notes": create("Notes"), "/drafts": create("Drafts") },
};

Deno.test("merge: shards run one after another are not blamed on overlapping creates; overlapping ones are", async () => {
  const server = serveStandIn(() => Response.json({ error: "no" }, { status: 500 }));
  const dir = await Deno.makeTempDir({ prefix: "flowrun-race-merge-" });
  try {
    await Deno.writeTextFile(`${dir}/api.json`, JSON.stringify(document));
    const converted = await runCli(["convert", "openapi", "api.json", "-o", "flows"], { cwd: dir });
    assert.equal(converted.code, 0, converted.stderr);
    const line = /^Run: flowrun (.*)$/m.exec(converted.stderr)?.[1];
    assert.ok(line, converted.stderr);
    for (const n of [1, 2]) {
      const args = [...line.split(" "), "--shard", `${n}/2`, "--report-json", `s${n}.json`];
      const run = await runCli(args, { cwd: dir, env: { BASE_URL: server.base } });
      assert.equal(run.code, 1, run.stdout + run.stderr);
    }
    const merged = await runCli(["merge", "s1.json", "s2.json"], { cwd: dir });
    assert.match(merged.stdout, /POST \/notes answered 500/, merged.stdout);
    assert.match(merged.stdout, /POST \/drafts answered 500/, merged.stdout);
    assert.match(merged.stdout, /no two flows ran at once/, merged.stdout);
    assert.doesNotMatch(merged.stdout, /--jobs 1/, merged.stdout);

    const first = JSON.parse(await Deno.readTextFile(`${dir}/s1.json`));
    const second = JSON.parse(await Deno.readTextFile(`${dir}/s2.json`));
    second.flows[0].started_at = first.flows[0].started_at;
    await Deno.writeTextFile(`${dir}/s2.json`, JSON.stringify(second));
    const together = await runCli(["merge", "s1.json", "s2.json"], { cwd: dir });
    assert.match(together.stdout, /run again with --jobs 1 to tell/, together.stdout);
  } finally {
    await server.close();
    await Deno.remove(dir, { recursive: true });
  }
});
