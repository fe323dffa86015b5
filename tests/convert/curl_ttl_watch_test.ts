/**
 * `convertCurl`: a watch that waits for a time to live the page set. A
 * key-value store's API page makes a directory with `-d ttl=30`, then
 * watches it (`?wait=true`) for the expiry event, which comes when those 30
 * seconds run out. curl waits; the flow's request gave up at the runner's
 * 30 s, just before the event, and the next command's create found the
 * directory still there (403 where curl got 201). A read whose query sets a
 * `wait` or `watch` flag (`true`, `1`) on a path an earlier command gave a
 * `ttl` of seconds (its form or its query; the path itself or one above
 * it, the last write there deciding) gets that time to live plus the
 * runner's default as its timeout, and a note says so. A watch with no TTL
 * set before, one whose path was last written with none, and a command's
 * own `--max-time` keep what they had.
 */
import assert from "node:assert/strict";
import { convertCurl } from "../../lib/convert/curl.ts";
import { withCurlFlow } from "../support/curl_run.ts";

/** The `timeout:` each step's options hold, in order (`-` for none). */
function timeouts(yaml: string): string[] {
  return yaml.split("\n  - name: ").slice(1).map((s) => /timeout: "?([^"\s]+)/.exec(s)?.[1] ?? "-");
}

Deno.test("a watch on a path given a TTL waits that long plus the default", () => {
  const page = [
    "curl http://a.test/v1/kv/box -XPUT -d ttl=40 -d dir=true",
    "curl 'http://a.test/v1/kv/box?wait=true'",
    "curl http://a.test/v1/kv/box/item?watch=1",
    "curl http://a.test/v1/kv/other?wait=true",
    "curl 'http://a.test/v1/kv/box?wait=true' --max-time 5",
  ].join("\n");
  const { yaml, summary } = convertCurl(page);
  assert.deepEqual(timeouts(yaml), ["-", "70s", "70s", "-", "5000ms"], yaml);
  assert.ok(summary.notes.some((n) => /time to live \(40 s/.test(n)), summary.notes.join("\n"));
});

Deno.test("a TTL in the query counts; the path's last write decides", () => {
  // A write with no TTL makes the key lasting again: its watch has no expiry to wait for.
  const page = [
    "curl -X PUT 'http://a.test/v1/kv/k?ttl=3&value=v'",
    "curl http://a.test/v1/kv/k?wait=true",
    "curl http://a.test/v1/kv/k -XPUT -d value=w",
    "curl http://a.test/v1/kv/k?wait=true",
  ].join("\n");
  assert.deepEqual(timeouts(convertCurl(page).yaml), ["-", "33s", "-", "-"]);
});

Deno.test("run against a server: the watch answers at the expiry, after the default", async () => {
  // The server holds the watch 1.5 s, the TTL the page set; the run's default is 1 s (--timeout).
  await using s = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    await req.arrayBuffer();
    if (new URL(req.url).searchParams.get("wait") === "true") {
      await new Promise((r) => setTimeout(r, 1500));
      return Response.json({ action: "expire" });
    }
    return Response.json({ action: "set" }, { status: 201 });
  });
  const host = `127.0.0.1:${s.addr.port}`;
  const page = `curl http://${host}/v1/kv/d -XPUT -d ttl=1.5 -d dir=true\n` +
    `curl 'http://${host}/v1/kv/d?wait=true'\n`;
  await withCurlFlow(page, async ({ runFlow, readFlow }) => {
    assert.match(await readFlow(), /timeout: "?32s/);
    const run = await runFlow({}, "--timeout", "1s");
    assert.equal(run.code, 0, `${run.stdout}${run.stderr}`);
  });
});
