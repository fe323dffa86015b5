/**
 * A failed check does not stop a converted collection: Newman sends every
 * request of a run and reports the failed tests, so a suite migrated from it
 * must send the same requests after a failure too (issue 52). Compared with
 * Newman itself against the same server: the same requests in the same
 * order, and the same checks failed.
 */
import assert from "node:assert/strict";
import { runCli } from "../support/cli.ts";
import { runNewman } from "../support/newman_counts.ts";

const test = (exec: string[]) => ({ listen: "test", script: { exec } });

Deno.test("convert postman: after a failed check the later requests are still sent, as Newman sends them", async () => {
  const got: string[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    const url = new URL(req.url);
    got.push(`${req.method} ${url.pathname}`);
    if (url.pathname === "/items") return Response.json({ id: "i-9" }, { status: 201 });
    return Response.json({ ok: true, state: "draft" });
  });
  const base = `http://127.0.0.1:${server.addr.port}`;
  const dir = await Deno.makeTempDir({ prefix: "flowrun-pm-failed-" });
  try {
    const text = JSON.stringify({
      info: {
        name: "Keeps going",
        schema: "https://schema.getpostman.com/json/collection/v2.1.0/collection.json",
      },
      variable: [{ key: "base", value: base }],
      item: [
        {
          name: "Create item",
          request: { method: "POST", url: "{{base}}/items" },
          event: [test([
            "pm.test('created', () => pm.response.to.have.status(201));",
            "pm.collectionVariables.set('id', pm.response.json().id);",
          ])],
        },
        {
          name: "Publish item",
          request: { method: "POST", url: "{{base}}/items/{{id}}/publish" },
          // The server says "draft": this check fails, under Newman and under flowrun.
          event: [test([
            "pm.test('published', () => pm.expect(pm.response.json().state).to.eql('published'));",
          ])],
        },
        { name: "Read item", request: { method: "GET", url: "{{base}}/items/{{id}}" } },
        { name: "Delete item", request: { method: "DELETE", url: "{{base}}/items/{{id}}" } },
      ],
    });
    await Deno.writeTextFile(`${dir}/c.json`, text);
    const newman = await runNewman(`${dir}/c.json`);
    const byNewman = got.splice(0);
    assert.deepEqual(byNewman, [
      "POST /items",
      "POST /items/i-9/publish",
      "GET /items/i-9",
      "DELETE /items/i-9",
    ]);
    assert.equal(newman.failedAssertions, 1);

    const converted = await runCli(["convert", "postman", `${dir}/c.json`, "-o", `${dir}/out`]);
    assert.equal(converted.code, 0, converted.stderr);
    const line = converted.stderr.split("\n").find((l) => l.startsWith("Run: flowrun "));
    assert.ok(line, converted.stderr);
    const ran = await runCli([
      ...line.slice("Run: flowrun ".length).split(" "),
      "--report-json",
      `${dir}/r.json`,
    ]);
    assert.equal(ran.code, 1, ran.stdout + ran.stderr);
    assert.deepEqual(got, byNewman);
    const report = JSON.parse(await Deno.readTextFile(`${dir}/r.json`));
    const steps = report.flows[0].steps as { name: string; status: string }[];
    assert.deepEqual(steps.map((s) => [s.name, s.status]), [
      ["create_item", "passed"],
      ["publish_item", "failed"],
      ["read_item", "passed"],
      ["delete_item", "passed"],
    ]);
  } finally {
    await server.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});
