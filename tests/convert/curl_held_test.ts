/**
 * `convertCurl`: a query that asks the server to take its time. A database's
 * API reference tracks requests with `curl …/debug/requests?seconds=60` and
 * profiles with `…/debug/pprof/all?cpu=30s` (Go's `…/profile?seconds=30`
 * alike): curl waits, having no time limit unless told, and the docs print
 * the answer; the flow gave up at the runner's default 30 s and failed the
 * step. A value with a unit (`30s`, `5m`) under any name, or a bare number
 * under a name of seconds (`seconds`, `timeout`, `wait`…), is a time the
 * answer is held: the step's timeout is that plus the runner's default.
 * `--max-time` stays the command's own. Run here with `--timeout 1s` against
 * a server that holds its answer for the seconds asked.
 */
import assert from "node:assert/strict";
import { convertCurl } from "../../lib/convert/curl.ts";
import { withCurlFlow } from "../support/curl_run.ts";

Deno.test("a held duration in the query is the step's timeout, plus the default", () => {
  const text = [
    "curl http://localhost:8086/debug/requests?seconds=60",
    'curl -o profiles.tar.gz "http://localhost:8086/debug/pprof/all?cpu=30s"',
    "curl 'http://localhost:8500/v1/kv/a?index=12&wait=5m'",
    "curl --max-time 5 http://localhost:8086/debug/requests?seconds=60",
    "curl 'http://localhost:8086/query?db=mydb&epoch=s'",
    "curl 'http://localhost:8086/logs?since=24h'",
  ].join("\n") + "\n";
  const { yaml } = convertCurl(text);
  const timeouts = [...yaml.matchAll(/timeout: "?([^"\s]+)"?/g)].map((m) => m[1]);
  assert.deepEqual(timeouts, ["90s", "60s", "330s", "5000ms"], yaml);
});

Deno.test("run with a short default: the held answer arrives within the step's timeout", async () => {
  await using server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    async (req) => {
      const seconds = Number(new URL(req.url).searchParams.get("seconds") ?? "0");
      await new Promise((done) => setTimeout(done, seconds * 1000));
      return Response.json({ "user1:127.0.0.1": { writes: 0, queries: 1 } });
    },
  );
  const origin = `http://127.0.0.1:${server.addr.port}`;
  await withCurlFlow(`$ curl ${origin}/debug/requests?seconds=2\n`, async ({ runFlow }) => {
    const out = await runFlow({}, "--timeout", "1s");
    assert.equal(out.code, 0, out.stdout + out.stderr);
  });
});
