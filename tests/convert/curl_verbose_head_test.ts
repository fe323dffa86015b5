/**
 * `convertCurl`: the answer's head in a `curl -v` transcript pasted under the
 * command. curl's verbose mode prints what it sent after `> ` and what the
 * server answered after `< ` (`< HTTP/1.1 402 Payment Required`,
 * `< Set-Cookie: …`); a database's HTTP page pastes such transcripts under its
 * commands, and the converter read only `curl -i`'s bare head: the step
 * checked below 400 where the page shows a 402, and a cookie the head set was
 * a variable to ask. The `< ` status line and the `< Name: value` lines under
 * it are the command's pasted head, as `-i`'s are; an interim `1xx` head
 * (`100 Continue`) is never the answer. Run against a server started here.
 */
import assert from "node:assert/strict";
import { convertCurl } from "../../lib/convert/curl.ts";
import { withCurlFlow } from "../support/curl_run.ts";

/** The steps' status checks, in order. */
function statuses(yaml: string): string[] {
  return [...yaml.matchAll(/\n {6}status: (.*)\n/g)].map((m) => m[1]);
}

/** A page of `curl -v` transcripts; `PROMPT` before each command, `HOST` its server. */
const PAGE = [
  "## Greeting",
  "",
  "The greeting is paid for:",
  "",
  "```bash",
  "PROMPTcurl -v 'http://HOST/greeting'",
  "*   Trying 127.0.0.1:80...",
  "> GET /greeting HTTP/1.1",
  "> Host: HOST",
  "> Accept: */*",
  ">",
  "< HTTP/1.1 402 Payment Required",
  "< Content-Type: text/plain",
  "<",
  "* Connection #0 to host HOST left intact",
  "Pay first.",
  "```",
  "",
  "## Signing in",
  "",
  "```bash",
  "PROMPTcurl -v -X POST 'http://HOST/session' -H 'Expect: 100-continue' -d 'who=ann'",
  "> POST /session HTTP/1.1",
  ">",
  "< HTTP/1.1 100 Continue",
  "< HTTP/1.1 201 Created",
  "< Set-Cookie: visit=v-7c1e93d04b; Path=/",
  "<",
  "```",
  "",
  "Then the visit is yours:",
  "",
  "```bash",
  "PROMPTcurl -b 'visit=v-7c1e93d04b' 'http://HOST/mine'",
  "```",
  "",
].join("\n");

Deno.test("a curl -v transcript's < head is the command's answer", () => {
  for (const prompt of ["", "$ "]) {
    const { yaml, summary } = convertCurl(
      PAGE.replaceAll("PROMPT", prompt).replaceAll(
        "HOST",
        "127.0.0.1:8080",
      ),
    );
    // 402 as pasted; the 201 after the interim 100; the last one pasted no answer.
    assert.deepEqual(statuses(yaml), ["402", "201", "{ lt: 400 }"], yaml);
    assert.deepEqual(summary.env, [], `${JSON.stringify(prompt)}\n${yaml}`);
    assert.doesNotMatch(yaml, /v-7c1e93d04b/, yaml);
  }
});

Deno.test("curl -v's request lines and a lone < are no head", () => {
  const text = [
    "curl -v http://a.test/k",
    "> GET /k HTTP/1.1",
    "> Host: a.test",
    "<",
    "curl http://a.test/j",
    "< HTTP/1.1 404 Not Found",
    "",
  ].join("\n");
  // The lone `<` heads nothing; the 404 under the second command is that one's.
  assert.deepEqual(statuses(convertCurl(text).yaml), ["{ lt: 400 }", "404"]);
});

Deno.test("run against a server: the paid greeting and the visit's cookie pass", async () => {
  const visits = new Set<string>();
  await using s = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    await req.text();
    const path = new URL(req.url).pathname;
    if (path === "/greeting") return new Response("Pay first.", { status: 402 });
    if (path === "/session" && req.method === "POST") {
      const visit = `v-${crypto.randomUUID()}`;
      visits.add(visit);
      return new Response(null, {
        status: 201,
        headers: { "set-cookie": `visit=${visit}; Path=/` },
      });
    }
    const visit = /(?:^|;\s*)visit=([^;]+)/.exec(req.headers.get("cookie") ?? "")?.[1];
    return visits.has(visit ?? "")
      ? Response.json({ mine: true })
      : new Response(null, { status: 401 });
  });
  const page = PAGE.replaceAll("PROMPT", "$ ").replaceAll("HOST", `127.0.0.1:${s.addr.port}`);
  await withCurlFlow(page, async ({ runFlow }) => {
    const run = await runFlow();
    assert.equal(run.code, 0, `${run.stdout}${run.stderr}`);
  }, { docs: "http.md" });
});
