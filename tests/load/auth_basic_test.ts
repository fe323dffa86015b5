/**
 * Loading `basic:`'s `header` and `scheme`: the header a page's own script
 * sends Basic credentials in (`X-Authorization`) and the word before them
 * (`""` for bare base64); each is one word, a mistake one positioned problem
 * with its fix, in a flow and in an `--auth-file`.
 */
import assert from "node:assert/strict";
import { loadFlow } from "../../lib/load/load_flow.ts";
import { loadAuthFile } from "../../lib/load/auth_file.ts";

const step = '  - name: s\n    request: {url: "http://x.test"}\n';

function load(extra: string) {
  const text =
    `name: f\nauth:\n  basic: {username: ada, password: "\${ENV.PW}"${extra}}\nsteps:\n${step}`;
  return loadFlow(text, "f.yaml", { env: () => "v" });
}

Deno.test("basic's header and scheme are read as written; without them the block is as before", () => {
  const plain = load("").flow!.auth!;
  assert.ok(plain.kind === "basic" && !("header" in plain) && !("scheme" in plain));
  const own = load(', header: X-Authorization, scheme: ""').flow!.auth!;
  assert.ok(own.kind === "basic");
  assert.equal(own.header, "X-Authorization");
  assert.equal(own.scheme, "");
  const file = loadAuthFile(
    'auth:\n  basic:\n    username: ada\n    password: "${ENV.PW}"\n    header: api-credentials\n',
    "auth.yaml",
    { env: () => "v" },
  );
  assert.deepEqual(file.problems, []);
});

Deno.test("a header or scheme that is not one word is one problem at its value, with the fix", () => {
  const found = load(', header: "X Authorization", scheme: "Basic Auth"').problems.map((p) =>
    `${p.line}:${p.column} ${p.code} ${p.message} | ${p.hint}`
  );
  assert.equal(found.length, 2, found.join("\n"));
  assert.match(
    found[0],
    /^3:\d+ wrong-type Expected "header" of "basic" of the flow to be one word/,
  );
  assert.match(found[0], /header: X-Authorization/);
  assert.match(found[1], /"scheme" of "basic" of the flow/);
  assert.match(found[1], /scheme: "" for none/);
  // An empty header names none.
  assert.equal(load(', header: ""').problems[0]?.code, "wrong-type");
});
