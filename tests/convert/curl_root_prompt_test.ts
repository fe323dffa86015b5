/**
 * `convertCurl`: commands typed at root's `# ` prompt. A system monitor's
 * API page (the one its server writes with `--api-doc`) prints every example
 * as `# curl http://localhost:61208/api/3/cpu` with the JSON answer under it:
 * read as shell, each was a comment, and the text was refused, "The input
 * holds no curl command". When no curl command stands outside a comment,
 * `# ` before `curl` and a command's first word (an option, a URL, a host)
 * is a prompt, read as `$ ` is (the answers under each are what it
 * printed). A script with a command of its own keeps its commented-out ones
 * as comments, and `# curl config for the shop API` is a comment still. Run here against a server the test starts
 * that answers the page's paths.
 */
import assert from "node:assert/strict";
import { convertCurl } from "../../lib/convert/curl.ts";
import { withCurlFlow } from "../support/curl_run.ts";

const page = (origin: string) =>
  [
    "Get the Rest API status:",
    "",
    `    # curl -I ${origin}/api/3/status`,
    '    "HTTP/1.0 200 OK"',
    "",
    "Get the plugins list:",
    "",
    `    # curl ${origin}/api/3/pluginslist`,
    '    ["alert",',
    '     "cpu"]',
    "",
    "Get a specific field:",
    "",
    `# curl ${origin}/api/3/cpu/total`,
    '{"total": 4.1}',
    "",
  ].join("\n");

Deno.test("with no curl outside a comment, `# curl` is root's prompt", () => {
  const { yaml, summary } = convertCurl(page("http://localhost:61208"));
  assert.equal(summary.steps, 3, yaml);
  assert.match(yaml, /method: HEAD/, yaml);
  assert.match(yaml, /\/api\/3\/cpu\/total/, yaml);
});

Deno.test("a comment about curl stays a comment", () => {
  const config = '# curl config for the shop API (-K)\nurl = "https://shop.example.com/x"\n';
  assert.throws(() => convertCurl(config), /no curl command/);
});

Deno.test("a script's commented-out command stays a comment", () => {
  const script = [
    "# curl http://localhost:61208/api/3/old",
    "curl http://localhost:61208/api/3/cpu",
    "",
  ].join("\n");
  const { yaml, summary } = convertCurl(script);
  assert.equal(summary.steps, 1, yaml);
  assert.ok(!yaml.includes("/old"), yaml);
});

Deno.test("run against a server answering the page's paths", async () => {
  const paths: string[] = [];
  await using server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    const path = new URL(req.url).pathname;
    paths.push(path);
    if (path === "/api/3/status") return new Response(null, { status: 200 });
    if (path === "/api/3/pluginslist") return Response.json(["cpu", "mem"]);
    if (path === "/api/3/cpu/total") return Response.json({ total: 12.5 });
    return new Response("not found", { status: 404 });
  });
  const docs = page(`http://127.0.0.1:${server.addr.port}`);
  await withCurlFlow(docs, async ({ runFlow }) => {
    const out = await runFlow();
    assert.equal(out.code, 0, out.stdout + out.stderr);
    assert.deepEqual(paths, ["/api/3/status", "/api/3/pluginslist", "/api/3/cpu/total"]);
  }, { docs: "api.txt" });
});
