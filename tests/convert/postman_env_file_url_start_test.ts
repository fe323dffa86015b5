/**
 * `{{scheme}}://{{apiHost}}:{{port}}/…` with an environment that gives `scheme`: a variable a URL
 * starts with is read from the process environment (`${ENV.SCHEME}`), as a base URL is, but the
 * env file held only those whose name says URL or host, so `SCHEME` was asked for under "Set
 * before running" although the environment gives it, and the run as printed stopped before
 * sending anything (a course's forum collection: `{{protocol}}://{{host}}:{{port}}`). The env
 * file now holds every environment value the flows read from the process environment (never a
 * secret); run exactly as printed, the request reaches a small server.
 */
import assert from "node:assert/strict";
import { convertPostman } from "../../lib/convert/postman/mod.ts";
import { runCli } from "../support/cli.ts";

const V21 = "https://schema.getpostman.com/json/collection/v2.1.0/collection.json";

Deno.test("postman environment: a URL-start variable the environment gives is in the env file, not asked for", async () => {
  let hits = 0;
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, () => {
    hits++;
    return Response.json({ ok: true });
  });
  const dir = await Deno.makeTempDir();
  try {
    const collection = JSON.stringify({
      info: { name: "Forum", schema: V21 },
      item: [{
        name: "Home",
        event: [{
          listen: "test",
          script: { exec: ["pm.test('200', () => pm.response.to.have.status(200));"] },
        }],
        request: { method: "GET", url: "{{scheme}}://{{apiHost}}:{{port}}/" },
      }],
    });
    const environment = JSON.stringify({
      name: "local",
      values: [
        { key: "scheme", value: "http", enabled: true },
        { key: "apiHost", value: "127.0.0.1", enabled: true },
        { key: "port", value: String(server.addr.port), enabled: true },
      ],
    });
    const { files, summary } = convertPostman(collection, environment);
    const env = files.find((f) => f.path.endsWith(".env"));
    assert.match(env?.text ?? "", /^SCHEME=http$/m, JSON.stringify(files));
    for (const f of files) await Deno.writeTextFile(`${dir}/${f.path}`, f.text);
    const run = await runCli([
      "run",
      `${dir}/`,
      "--vars-file",
      `${dir}/${summary.varsFile}`,
      "--env-file",
      `${dir}/${summary.envFile}`,
    ]);
    assert.equal(run.code, 0, run.stdout + run.stderr);
    assert.equal(hits, 1);
  } finally {
    await server.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});
