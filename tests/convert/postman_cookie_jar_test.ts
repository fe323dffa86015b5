/**
 * `pm.cookies` reads Postman's cookie jar for the request's URL, so a cookie the
 * first answer of a redirect set is there; the translation read `$.cookies`, the
 * final answer's `Set-Cookie` only, and failed where Newman passes. It now reads
 * `$.jar`: the cookies the flow run's jar holds for the response's URL once the
 * response is kept. A small server answers `/login` with a cookie and a redirect.
 */
import assert from "node:assert/strict";
import { convertPostman } from "../../lib/convert/postman/mod.ts";
import { runCli } from "../support/cli.ts";

const V21 = "https://schema.getpostman.com/json/collection/v2.1.0/collection.json";

Deno.test("postman cookie jar: a cookie a redirect set is read from the jar, as pm.cookies reads Postman's", async () => {
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    if (new URL(req.url).pathname === "/login") {
      return new Response(null, {
        status: 302,
        headers: { location: "/home", "set-cookie": "session=s-9; Path=/" },
      });
    }
    return Response.json({ home: true, cookie: req.headers.get("cookie") });
  });
  const dir = await Deno.makeTempDir();
  try {
    const tests = [
      'pm.test("Jar has it", () => pm.expect(pm.cookies.has("session")).to.be.true);',
      'pm.test("Jar value", () => pm.expect(pm.cookies.get("session")).to.eql("s-9"));',
    ];
    const { files } = convertPostman(JSON.stringify({
      info: { name: "Jar", schema: V21 },
      item: [{
        name: "Login",
        event: [{ listen: "test", script: { exec: tests } }],
        request: {
          method: "GET",
          url: `http://127.0.0.1:${server.addr.port}/login`,
          header: [],
        },
      }],
    }));
    for (const f of files) await Deno.writeTextFile(`${dir}/${f.path}`, f.text);
    const flow = files.find((f) => f.path.endsWith(".yaml"))!;
    assert.match(flow.text, /\$\.jar\.session/);
    const run = await runCli(["run", `${dir}/${flow.path}`, "--report-json", `${dir}/r.json`]);
    assert.equal(run.code, 0, run.stdout + run.stderr);
    const report = JSON.parse(await Deno.readTextFile(`${dir}/r.json`));
    const checks = report.flows[0].steps[0].assertions as { name?: string; passed: boolean }[];
    assert.deepEqual(
      checks.filter((c) => c.name).map((c) => [c.name, c.passed]),
      [["Jar has it", true], ["Jar value", true]],
    );
  } finally {
    await server.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});
