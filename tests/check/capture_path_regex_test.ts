/**
 * `{path, regex}`: the first group of a regular expression over the text a path selects, as a
 * script keeps a token from a JSON member (`json.authorization.split(" ")[1]` of
 * `"Bearer eyJ…"`). Run by the CLI against a server that hands out a token that way and
 * serves a page only with it; in both spellings (`capture` rooted at the response, `extract`
 * at the body); a pattern with no group is refused before sending, and a member that is no
 * text fails the step naming it.
 */
import assert from "node:assert/strict";
import { runCli } from "../support/cli.ts";

function server(seen: string[]) {
  return Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    const path = new URL(req.url).pathname;
    seen.push(`${path} ${req.headers.get("authorization")}`);
    if (path === "/login") return Response.json({ authorization: "Bearer abc.DEF-1", n: 5 });
    const ok = req.headers.get("authorization") === "Token abc.DEF-1";
    return Response.json({ ok }, { status: ok ? 200 : 401 });
  });
}

function flow(base: string, source: string, spellingB = false): string {
  const cap = spellingB ? "extract" : "capture";
  const ref = spellingB ? "${steps.login.token}" : "${steps.login.capture.token}";
  return `name: path regex\nsteps:\n  - name: login\n    request: { method: POST, url: "${base}/login" }\n` +
    `    ${cap}:\n      token: ${source}\n` +
    `  - name: page\n    request:\n      url: "${base}/page"\n      headers: { Authorization: "Token ${ref}" }\n` +
    `    assert: { status: 200 }\n`;
}

Deno.test("capture: {path, regex} keeps the first group over a JSON member's text, in both spellings", async () => {
  const seen: string[] = [];
  const s = server(seen);
  const dir = await Deno.makeTempDir();
  const base = `http://127.0.0.1:${s.addr.port}`;
  try {
    const cases: [string, boolean][] = [
      ["{ path: $.json.authorization, regex: '^Bearer (.+)$' }", false],
      ["{ path: $.authorization, regex: '^(?:[^ ]* ){1}([^ ]*)' }", true],
    ];
    for (const [source, b] of cases) {
      await Deno.writeTextFile(`${dir}/f.yaml`, flow(base, source, b));
      const run = await runCli(["run", `${dir}/f.yaml`]);
      assert.equal(run.code, 0, source + run.stdout + run.stderr);
    }
    assert.equal(seen.filter((l) => l === "/page Token abc.DEF-1").length, 2);
  } finally {
    await s.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("capture: {path, regex} with no group is refused before sending; a member that is no text fails its step", async () => {
  const seen: string[] = [];
  const s = server(seen);
  const dir = await Deno.makeTempDir();
  const base = `http://127.0.0.1:${s.addr.port}`;
  try {
    await Deno.writeTextFile(
      `${dir}/f.yaml`,
      flow(base, "{ path: $.json.authorization, regex: 'Bearer .+' }"),
    );
    const refused = await runCli(["run", `${dir}/f.yaml`]);
    assert.equal(refused.code, 2, refused.stdout + refused.stderr);
    assert.match(
      refused.stderr,
      /"Bearer \.\+" .*has no group, so it names no part of the text the path selects/,
    );
    assert.equal(seen.length, 0);
    await Deno.writeTextFile(`${dir}/f.yaml`, flow(base, "{ path: $.json.n, regex: '(\\d)' }"));
    const failed = await runCli(["run", `${dir}/f.yaml`]);
    assert.equal(failed.code, 1, failed.stdout + failed.stderr);
    assert.match(failed.stdout + failed.stderr, /\$\.json\.n is no text to match/);
  } finally {
    await s.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});
