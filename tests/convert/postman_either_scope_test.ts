/**
 * `const id = pm.environment.get("studentId") || pm.collectionVariables.get("studentId")`, then
 * `pm.request.headers.upsert({ key: "X-Student-Id", value: id })`: a collection-level pre-request
 * script that reads one variable from the environment, else from the collection, as a course's
 * API-testing collections send a student's id on every request. With the id in the environment
 * file only, the whole script stayed a comment and no request sent the header: `a || b` was read
 * only when `a` was a literal. Newman sends the environment's value; so does the step now, when
 * `b` is the same variable in another scope or is not set anywhere (a falsy literal).
 */
import assert from "node:assert/strict";
import { convertPostman } from "../../lib/convert/postman/mod.ts";
import { runConverted } from "../support/postman_run.ts";

const V21 = "https://schema.getpostman.com/json/collection/v2.1.0/collection.json";

function collection(port: number, read: string): string {
  return JSON.stringify({
    info: { name: "Profile", schema: V21 },
    event: [{
      listen: "prerequest",
      script: {
        exec: [
          `const studentId = ${read};`,
          "pm.request.headers.upsert({ key: 'X-Student-Id', value: studentId });",
        ],
      },
    }],
    item: [{
      name: "Me",
      request: { method: "GET", url: `http://127.0.0.1:${port}/api/users/me` },
      event: [{
        listen: "test",
        script: { exec: ["pm.test('ok', () => pm.response.to.have.status(200));"] },
      }],
    }],
  });
}

const environment = JSON.stringify({
  name: "Local",
  values: [{ key: "studentId", value: "23127396", enabled: true }],
});

for (
  const read of [
    "pm.environment.get('studentId') || pm.collectionVariables.get('studentId')",
    "pm.environment.get('studentId') || pm.variables.get('studentId')",
    "pm.environment.get('studentId') || ''",
  ]
) {
  Deno.test(`postman either scope: ${read} sends the environment's value, as Newman does`, async () => {
    const seen: (string | null)[] = [];
    const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
      seen.push(req.headers.get("x-student-id"));
      return new Response("{}", { status: req.headers.get("x-student-id") ? 200 : 400 });
    });
    const dir = await Deno.makeTempDir();
    try {
      const { files } = convertPostman(collection(server.addr.port, read), environment);
      const flow = files.find((f) => f.path.endsWith(".yaml"))!;
      assert.doesNotMatch(flow.text, /untranslated, from the pre-request/, flow.text);
      const { run } = await runConverted(files, dir);
      assert.equal(run.code, 0, run.stdout + run.stderr + flow.text);
      assert.deepEqual(seen, ["23127396"]);
    } finally {
      await server.shutdown();
      await Deno.remove(dir, { recursive: true });
    }
  });
}
