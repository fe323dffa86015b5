/**
 * `convert curl`: a command written in a comment block, each of its lines
 * marked. A DHCP server's control agent page (reStructuredText, measured by
 * hand) shows its only curl example inside the `#` comments of an nginx
 * configuration: `#   curl -k --key kea-client.key … -X POST \`, then
 * `#        -H Content-Type:application/json -d '{ … }' \`, then
 * `#         https://kea.example.org/kea`. Root's `#` prompt was read before
 * `curl`, but the lines it carries on to kept their `#`, which the shell
 * reads as a comment after the `\`: the URL was lost, and the page was
 * refused ("No curl command in the input sends an http(s) request"). When
 * nothing in the text is a command outside a comment, a line carrying on a
 * commented command (the line above ends with `\`) that starts with the same
 * `#` is that command's line, its mark left out. Run against a server
 * started here.
 */
import assert from "node:assert/strict";
import { convertCurl } from "../../lib/convert/curl.ts";
import { withCurlFlow } from "../support/curl_run.ts";

/** The comment blocks as pages write them, the command carried over marked lines. */
function blocks(origin: string): Record<string, string[]> {
  return {
    nginx: [
      "::",
      "",
      '   #   In order to test the proxy configuration with "curl", run a',
      "   #   command similar to the following:",
      "   #",
      "   #   curl -X POST \\",
      `   #        -H Content-Type:application/json -d '{ "command": "list-commands" }' \\`,
      `   #         ${origin}/kea`,
      "   #",
      "   #   curl syntax for basic authentication is -u user:password",
      "",
      "   events {",
      "   }",
    ],
    scriptHeader: [
      "#!/bin/sh",
      "# Usage: ask the agent for its commands, as in",
      "# curl -X POST \\",
      "#   -H 'Content-Type: application/json' \\",
      `#   -d '{ "command": "list-commands" }' \\`,
      `#   ${origin}/kea`,
      "exit 0",
    ],
    tight: [
      "# curl -X POST -H 'Content-Type: application/json' \\",
      `#-d '{ "command": "list-commands" }' ${origin}/kea`,
    ],
  };
}

for (const [shape, lines] of Object.entries(blocks("https://kea.example.org"))) {
  Deno.test(`a ${shape} comment's command keeps its marked lines`, () => {
    const { yaml, summary } = convertCurl(lines.join("\n"));
    assert.equal(summary.steps, 1, yaml);
    assert.match(yaml, /\/kea/, yaml);
    assert.match(yaml, /command: list-commands/, yaml);
  });
}

Deno.test("a commented command beside a command of the text stays a comment", () => {
  const text = [
    "curl http://127.0.0.1:8000/a",
    "# curl -X POST \\",
    "#   http://127.0.0.1:8000/old",
    "",
  ].join("\n");
  const { yaml, summary } = convertCurl(text);
  assert.equal(summary.steps, 1, yaml);
  assert.doesNotMatch(yaml, /\/old/, yaml);
});

Deno.test("a comment after a commented command that has ended keeps its mark", () => {
  const text = [
    "# curl -X POST http://127.0.0.1:8000/kea -d '{}'",
    "# -u user:password is curl's syntax for basic authentication",
    "",
  ].join("\n");
  const { yaml, summary } = convertCurl(text);
  assert.equal(summary.steps, 1, yaml);
  assert.doesNotMatch(yaml, /auth:|BASIC/, yaml);
});

Deno.test("run against a server: the command in each comment block is sent whole", async () => {
  const seen: string[] = [];
  await using s = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const body = await req.json();
    seen.push(`${new URL(req.url).pathname} ${body.command}`);
    return Response.json([{ result: 0, arguments: ["list-commands"] }]);
  });
  const all = blocks(`http://127.0.0.1:${s.addr.port}`);
  for (const lines of Object.values(all)) {
    await withCurlFlow(lines.join("\n"), async ({ runFlow, converted }) => {
      const run = await runFlow();
      assert.equal(run.code, 0, `${converted.stderr}\n${run.stdout}${run.stderr}`);
    }, { docs: "agent.rst" });
  }
  assert.deepEqual(seen, Object.keys(all).map(() => "/kea list-commands"));
});
