/**
 * Loading `bearer:`'s two forms: `token` (an expression) or `command` (a
 * list, allowed only with `--allow-commands`), each mistake one positioned
 * problem with its fix, in a flow and in an `--auth-file`.
 */
import assert from "node:assert/strict";
import { loadFlow } from "../../lib/load/load_flow.ts";
import { loadAuthFile } from "../../lib/load/auth_file.ts";
import { cacheInput } from "../../lib/load/flow_cache.ts";

const step = '  - name: s\n    request: {url: "http://x.test"}\n';

function load(block: string, allowCommands = true) {
  const text = `name: f\nauth:\n  bearer: ${block}\nsteps:\n${step}`;
  return loadFlow(text, "f.yaml", { env: () => "v", allowCommands });
}

function problems(block: string, allowCommands = true) {
  return load(block, allowCommands).problems.map((p) =>
    `${p.line}:${p.column} ${p.code} ${p.message} | ${p.hint}`
  );
}

Deno.test("a command is a list of templates, with its refresh_after", () => {
  const { flow, problems } = load(
    '{command: [gcloud, auth, "--project=${ENV.P}", 3], refresh_after: 5m}',
  );
  assert.deepEqual(problems, []);
  const auth = flow!.auth!;
  assert.ok(auth.kind === "bearer" && "command" in auth);
  assert.deepEqual(auth.command.map((t) => t.source), [
    "gcloud",
    "auth",
    "--project=${ENV.P}",
    "3",
  ]);
  assert.equal(auth.refreshAfterMs, 300_000);
  const token = load('{token: "${ENV.T}"}').flow!.auth!;
  assert.ok(token.kind === "bearer" && "token" in token && token.token.source === "${ENV.T}");
});

Deno.test("without --allow-commands a command is refused at its key, naming the program", () => {
  const found = problems("{command: [gh, auth, token]}", false);
  assert.equal(found.length, 1, found.join("\n"));
  assert.match(
    found[0],
    /^3:12 command-not-allowed "command" of "bearer" of the flow runs the program "gh"/,
  );
  assert.match(found[0], /add --allow-commands to flowrun run \(and validate\)/);
  // The auth file too.
  const file = loadAuthFile("auth:\n  bearer:\n    command: [gh, auth, token]\n", "auth.yaml");
  assert.deepEqual(file.problems.map((p) => `${p.line}:${p.column} ${p.code}`), [
    "3:5 command-not-allowed",
  ]);
  const allowed = loadAuthFile("auth:\n  bearer:\n    command: [gh, auth, token]\n", "auth.yaml", {
    allowCommands: true,
  });
  assert.deepEqual(allowed.problems, []);
});

Deno.test("a shell line is refused with the list it probably means", () => {
  const found = problems('{command: "az account get-access-token --query accessToken -o tsv"}');
  assert.equal(found.length, 1, found.join("\n"));
  assert.match(found[0], /^3:21 wrong-type .*got the string "az account/);
  assert.match(
    found[0],
    /\| Write it as a list: command: \["az", "account", "get-access-token", "--query", "accessToken", "-o", "tsv"\]$/,
  );
});

Deno.test("each mistake of the block is one positioned problem", () => {
  const cases: [string, RegExp][] = [
    ['{token: "${ENV.T}", command: [gh]}', /^3:31 conflicting-keys "command" and "token"/],
    ["{}", /^3:3 missing-key Missing key "token" in "bearer" of the flow: .*"token" or "command"/],
    ["{command: []}", /^3:21 wrong-type Expected "command" .* list of 1 to 64 strings/],
    ["{command: [gh, {a: 1}]}", /^3:26 wrong-type Expected each item of "command"/],
    [
      "{command: [gh], refresh_after: soon}",
      /^3:42 wrong-type Expected "refresh_after" .* duration/,
    ],
    [
      '{token: "${ENV.T}", refresh_after: 5m}',
      /^3:31 conflicting-keys "refresh_after" .* applies to a command/,
    ],
    ["{command: [gh], shell: true}", /^3:27 unknown-key/],
  ];
  for (const [block, want] of cases) {
    const found = problems(block);
    assert.equal(found.length, 1, `${block}: ${found.join("\n")}`);
    assert.match(found[0], want, block);
  }
});

Deno.test("the flow cache tells a load with --allow-commands from one without", () => {
  const without = cacheInput("f.yaml", "name: f\n", {});
  assert.equal(without, cacheInput("f.yaml", "name: f\n", { allowCommands: false }));
  assert.notEqual(without, cacheInput("f.yaml", "name: f\n", { allowCommands: true }));
});
