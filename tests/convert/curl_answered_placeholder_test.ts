/**
 * `convertCurl`: a placeholder an earlier pasted answer fills. A monitoring
 * server's API page creates a config stage, prints the answer (`{"results":
 * [{"package": "example-cmdb", "stage": "7e78…"}]}`) and says the stage's
 * name is needed later; a reader's page then writes `…/stages/example-cmdb/<stage>`
 * or `-H "X-Stage: $STAGE"`. Each was a variable to set by hand (`STAGE`),
 * which no one knows before the create runs: a fresh instance makes its own.
 * A placeholder or `$VARIABLE` whose words are the words of one member of
 * the nearest earlier pasted answer (`<stage>` and `"stage"`, `$SESSION_ID`
 * and `"session_id"`, `:orderId` and `"order_id"`) is a capture of that
 * command's step at that member's path now; one no answer names stays a
 * value to set. Run against a server started here that makes a new stage
 * and session at each create and knows no other.
 */
import assert from "node:assert/strict";
import { convertCurl } from "../../lib/convert/curl.ts";
import { withCurlFlow } from "../support/curl_run.ts";

const DOCS = [
  "Create a stage:",
  "",
  `curl -s -X POST http://HOST/v1/config/stages/example-cmdb -d '{"files": {}}'`,
  "",
  '{"results": [{"code": 200.0, "package": "example-cmdb", "stage": "7e7861c8-8008-4e8d-9910-2a0bb26921bd"}]}',
  "",
  "You need the stage's name for later requests:",
  "",
  "curl -s http://HOST/v1/config/stages/example-cmdb/<stage>",
  "curl -s http://HOST/v1/config/files/example-cmdb/:stage/startup.log",
  'curl -s -H "X-Stage: $STAGE" http://HOST/v1/config/active',
  "",
  "curl -s -X POST http://HOST/api/sessions -d 'user=me'",
  '# => {"session_id": "s-0000-1111", "user": "me"}',
  "curl -s http://HOST/api/sessions/$SESSION_ID/items",
  "",
  "curl -s http://HOST/api/zones/<zone>",
  "",
].join("\n");

Deno.test("placeholders an earlier answer names are captures, others values to set", () => {
  const { yaml, summary } = convertCurl(DOCS.replaceAll("HOST", "a.test"));
  const flow = yaml.split("\n").filter((l) => !/^\s*#/.test(l)).join("\n");
  assert.deepEqual(summary.env, ["ZONE"], yaml);
  assert.match(flow, /stage: "\$\.json\.results\[0\]\.stage"|stage: \$\.json\.results\[0\]\.stage/);
  assert.match(flow, /session_id: \$\.json\.session_id/);
  assert.equal([...flow.matchAll(/\$\{steps\.\w+\.capture\.stage\}/g)].length, 3, yaml);
  assert.match(flow, /\/api\/sessions\/\$\{steps\.\w+\.capture\.session_id\}\/items/);
});

Deno.test("run against a server: the stage and the session made are the ones sent", async () => {
  const stages = new Set<string>();
  const sessions = new Set<string>();
  await using s = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    const url = new URL(req.url);
    const parts = url.pathname.split("/");
    if (req.method === "POST" && url.pathname.startsWith("/v1/config/stages/")) {
      const stage = crypto.randomUUID();
      stages.add(stage);
      return Response.json({ results: [{ code: 200, package: parts[4], stage }] });
    }
    if (req.method === "POST") {
      const id = `s-${crypto.randomUUID()}`;
      sessions.add(id);
      return Response.json({ session_id: id, user: "me" });
    }
    const known = url.pathname === "/v1/config/active"
      ? stages.has(req.headers.get("x-stage") ?? "")
      : url.pathname.startsWith("/api/zones/") ||
        parts.some((p) => stages.has(p) || sessions.has(p));
    return Response.json({ known }, { status: known ? 200 : 404 });
  });
  const docs = DOCS.replaceAll("HOST", `127.0.0.1:${s.addr.port}`);
  await withCurlFlow(docs, async ({ runFlow }) => {
    const run = await runFlow({ ZONE: "example.org" });
    assert.equal(run.code, 0, `${run.stdout}${run.stderr}`);
    assert.match(run.stdout, /7 steps: 7 passed/);
  });
});
