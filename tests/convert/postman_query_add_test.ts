/**
 * A query parameter a pre-request script adds to its request:
 * `pm.request.url.query.add("from=" + (new Date()).toISOString())` (a university project's own
 * collection asks for the lectures from now on so), `pm.request.addQueryParams({ key, value })`.
 * It was a comment, so the request went without it and the server answered the whole list,
 * where Newman's answer (and its check) was the filtered one. The parameter is now sent: text,
 * variables and the time of the request (`${NOW.ISO}`).
 */
import assert from "node:assert/strict";
import { convertPostman } from "../../lib/convert/postman/mod.ts";
import { runCli } from "../support/cli.ts";

const V21 = "https://schema.getpostman.com/json/collection/v2.1.0/collection.json";

Deno.test("postman query add: the parameters a pre-request script adds are sent, the time as the request's", async () => {
  const queries: string[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    const q = new URL(req.url).searchParams;
    queries.push(`${q.get("kind")}|${q.get("page")}`);
    const from = Date.parse(q.get("from") ?? "");
    const recent = Math.abs(Date.now() - from) < 3_600_000;
    return Response.json({ filtered: recent && q.get("page") === "2" });
  });
  const dir = await Deno.makeTempDir();
  try {
    const { files } = convertPostman(
      JSON.stringify({
        info: { name: "Query", schema: V21 },
        item: [{
          name: "lectures from now on",
          event: [
            {
              listen: "prerequest",
              script: {
                exec: [
                  'pm.request.url.query.add("from=" + (new Date()).toISOString());',
                  'pm.request.addQueryParams({ key: "page", value: pm.environment.get("page") });',
                ],
              },
            },
            {
              listen: "test",
              script: {
                exec: [
                  "pm.test('filtered', () => pm.expect(pm.response.json().filtered).to.be.true);",
                ],
              },
            },
          ],
          request: {
            method: "GET",
            url: `http://127.0.0.1:${server.addr.port}/lectures?kind=live`,
            header: [],
          },
        }],
      }),
      JSON.stringify({ name: "Local", values: [{ key: "page", value: "2", enabled: true }] }),
    );
    const flow = files.find((f) => f.path.endsWith(".yaml"))!;
    assert.doesNotMatch(flow.text, /# untranslated/, flow.text);
    for (const f of files) await Deno.writeTextFile(`${dir}/${f.path}`, f.text);
    const run = await runCli([
      "run",
      `${dir}/${flow.path}`,
      "--vars-file",
      `${dir}/local.vars.json`,
    ]);
    assert.equal(run.code, 0, run.stdout + run.stderr + flow.text);
    assert.deepEqual(queries, ["live|2"]);
  } finally {
    await server.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("postman query add: a parameter whose value is not known before the request stays a comment", () => {
  const { files } = convertPostman(JSON.stringify({
    info: { name: "Query", schema: V21 },
    item: [{
      name: "later",
      event: [{
        listen: "prerequest",
        script: {
          exec: [
            "const d = new Date(); d.setHours(0);",
            'pm.request.url.query.add("from=" + d.toISOString());',
          ],
        },
      }],
      request: { method: "GET", url: "http://127.0.0.1:9/lectures", header: [] },
    }],
  }));
  const flow = files.find((f) => f.path.endsWith(".yaml"))!.text;
  assert.match(flow, /#\s+pm\.request\.url\.query\.add/, flow);
  assert.doesNotMatch(flow, /url: .*from=/, flow);
});
