/**
 * Nothing a target sends, and nothing in a flow's names, can act on the
 * terminal or on the CI system reading the console: escape sequences, bare
 * carriage returns, bells, bidirectional overrides and lines shaped like
 * GitHub Actions or Azure Pipelines workflow commands are shown visibly
 * escaped, never raw.
 */
import assert from "node:assert/strict";
import { runCli } from "../support/cli.ts";

const HOSTILE = [
  "\x1b]0;owned\x07",
  "\x1b[2J\x1b[31mred",
  "over\rwritten",
  "::add-mask::hunter2",
  "::error file=x.yaml,line=1::pwned",
  "   ::warning::indented",
  "##vso[task.setvariable variable=x]y",
  "##[group]fold",
  "\u202eevil\u202c",
  "\x9b31m",
].join("\n");

function hostileServer() {
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (request) => {
    const path = new URL(request.url).pathname;
    if (path === "/json") return Response.json({ state: HOSTILE, lines: HOSTILE.split("\n") });
    return new Response(HOSTILE, {
      status: 500,
      headers: { "content-type": "text/plain", "x-note": "::error::from a header" },
    });
  });
  return { url: `http://127.0.0.1:${server.addr.port}`, close: () => server.shutdown() };
}

/** Fails when console text could act on a terminal or a CI runner. */
function assertInert(where: string, text: string): void {
  // deno-lint-ignore no-control-regex -- looking for control characters is the point.
  const control = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]/.exec(text);
  assert.equal(control, null, `${where} holds a raw control character at ${control?.index}`);
  for (const line of text.split("\n")) {
    assert.doesNotMatch(line, /^\s*::/, `${where}: a line a GitHub runner would execute`);
    assert.doesNotMatch(line, /##vso\[|^\s*##\[/, `${where}: a line Azure Pipelines would execute`);
  }
}

Deno.test("hostile bodies, headers and names cannot drive the console or the CI log", async () => {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-console-" });
  const api = hostileServer();
  try {
    // Names come from the flow file: YAML escapes let them hold anything.
    await Deno.writeTextFile(
      `${dir}/hostile.yaml`,
      `name: "flow \\e[31m::error::name \\r"
steps:
  - name: "::add-mask::step"
    request: { url: "${api.url}/json" }
    assert:
      json:
        - { path: $.json.state, type: string }
        - { path: $.json.lines, length: 10 }
  - name: "text \\a\\u202e"
    request: { url: "${api.url}/text" }
    assert: { status: 200 }
`,
    );
    for (const extra of [[], ["--verbose"]]) {
      const run = await runCli(["run", `${dir}/hostile.yaml`, ...extra], {
        env: { FORCE_COLOR: "0" },
      });
      assert.equal(run.code, 1, run.stderr);
      assertInert(`stdout ${extra}`, run.stdout);
      assertInert(`stderr ${extra}`, run.stderr);
      // Shown, not dropped: the reader can still see what the target sent.
      assert.ok(run.stdout.includes("\\e]0;owned\\x07"), run.stdout);
      assert.ok(run.stdout.includes("✔ ::add-mask::step"), "mid-line, a name is shown as it is");
      assert.ok(run.stdout.includes("over\\rwritten"), run.stdout);
    }
    // A flow file that fails to load is quoted in problems: the same rules hold on stderr.
    await Deno.writeTextFile(`${dir}/bad.yaml`, `name: "::error::bad \\e[2J"\nstep: []\n`);
    const bad = await runCli(["run", `${dir}/bad.yaml`]);
    assert.equal(bad.code, 2);
    assertInert("problems", bad.stderr);
  } finally {
    await api.close();
    await Deno.remove(dir, { recursive: true });
  }
});
