/**
 * A literal origin whose port (or host) is a variable, `http://localhost:{{port}}/…` with the port
 * in a globals or environment file (a public project's own collection, measured by hand: its
 * globals give `LocalhostPort`): the origin's variable was cut at the `{{`, so the summary asked
 * for `LOCALHOST_URL` ("http://localhost: unless set") and the flow sent
 * `${ENV.LOCALHOST_URL}${vars.port}/…`; set as asked, the port was appended to it and nothing
 * was sent. The variable's value is now written into the origin, read whole from its variable,
 * and one only a script or nothing gives stays in the URL as written, with no origin variable.
 */
import assert from "node:assert/strict";
import { convertPostman, formatPostmanSummary } from "../../lib/convert/postman/mod.ts";
import { runConverted } from "../support/postman_run.ts";

const V21 = "https://schema.getpostman.com/json/collection/v2.1.0/collection.json";

/** Two requests on one origin whose port and host the variables give. */
function collection(url: string) {
  const test = "pm.test('200', () => pm.response.to.have.status(200));";
  return JSON.stringify({
    info: { name: "Origin", schema: V21 },
    item: ["a", "b"].map((name) => ({
      name,
      event: [{ listen: "test", script: { exec: [test] } }],
      request: { method: "GET", url: `${url}/${name}` },
    })),
  });
}

function file(scope: string, values: Record<string, string>) {
  const pairs = Object.entries(values).map(([key, value]) => ({ key, value, enabled: true }));
  return JSON.stringify({ name: scope, values: pairs, _postman_variable_scope: scope });
}

Deno.test("postman origin: a port or host variable the files give is part of the origin's one variable", async () => {
  const seen: string[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    seen.push(new URL(req.url).pathname);
    return Response.json({ ok: true });
  });
  try {
    for (
      const [url, env, globals] of [
        ["http://localhost:{{port}}", undefined, { port: "8080" }],
        ["http://{{host}}:{{port}}/api", { host: "localhost" }, { port: "8080" }],
      ] as const
    ) {
      const dir = await Deno.makeTempDir();
      seen.length = 0;
      const environment = env ? file("environment", env) : undefined;
      const { files, summary } = convertPostman(
        collection(url),
        environment,
        file("globals", globals),
      );
      const flow = files.find((f) => f.path.endsWith(".yaml"))!;
      const base = url.endsWith("/api") ? "/api" : "";
      assert.match(
        flow.text,
        new RegExp(`\\$\\{ENV.LOCALHOST_URL:-http://localhost:8080\\}${base}/a`),
      );
      const text = formatPostmanSummary(summary, dir);
      assert.match(text, /LOCALHOST_URL \(http:\/\/localhost:8080 unless set\)/, text);
      const origin = `http://127.0.0.1:${server.addr.port}`;
      const { run } = await runConverted(files, dir, { LOCALHOST_URL: origin });
      assert.equal(run.code, 0, run.stdout + run.stderr);
      assert.deepEqual(seen, [`${base}/a`, `${base}/b`]);
      await Deno.remove(dir, { recursive: true });
    }
  } finally {
    await server.shutdown();
  }
});

Deno.test("postman origin: a port no file gives stays in the URL, with no origin variable cut before it", () => {
  const { files, summary } = convertPostman(collection("http://localhost:{{port}}"));
  const flow = files.find((f) => f.path.endsWith(".yaml"))!;
  assert.match(flow.text, /url: http:\/\/localhost:\$\{vars.port\}\/a/, flow.text);
  assert.doesNotMatch(flow.text, /LOCALHOST_URL/);
  assert.ok(!summary.env.some((e) => e.name === "LOCALHOST_URL"), JSON.stringify(summary.env));
});
