/**
 * A `--vars-file` whose top-level `auth:` is a block gives the run's auth,
 * read as `--auth-file` reads it: used by every flow without its own,
 * `auth: none` still sends nothing, its credential masked in every output,
 * `validate` giving the verdict `run` gives, and the block given twice (with
 * `--auth-file`, or in two vars files) a problem at its position.
 */
import assert from "node:assert/strict";
import { withAuthRecorder } from "../support/auth_recorder.ts";
import { runCli } from "../support/cli.ts";
import { withFiles } from "../support/with_files.ts";

/** The token of the tests: a var whose name does not look secret, so only the auth masks it. */
const TOKEN = "plain-words-4711";

/** Runs `command` (run or validate) on DIR/f.yaml with the files written to DIR. */
async function cli(
  command: "run" | "validate",
  files: Record<string, string>,
  args: string[],
) {
  return await withFiles(files, async (dir) => {
    const outputs = command === "run"
      ? ["-vv", "--report-json", `${dir}/r.json`, "--log-file", `${dir}/run.log`]
      : [];
    const r = await runCli(
      [command, `${dir}/f.yaml`, ...outputs, ...args.map((a) => a.replaceAll("DIR", dir))],
    );
    const read = (name: string) => Deno.readTextFile(`${dir}/${name}`).catch(() => "");
    // Paths in messages as the test wrote them.
    const strip = (text: string) => text.replaceAll(`${dir}/`, "");
    return {
      code: r.code,
      stdout: strip(r.stdout),
      stderr: strip(r.stderr),
      report: await read("r.json"),
      log: await read("run.log"),
    };
  });
}

/** Neither the token nor its Basic encoding in any output. */
function assertNoToken(texts: string[]) {
  for (const text of texts) {
    assert.ok(!text.includes(TOKEN), text);
    assert.ok(!text.includes(btoa(`ann:${TOKEN}`)), text);
  }
}

/** The problem lines (`file:line:col error[code]: …`) of an output. */
const problemLines = (text: string) => text.split("\n").filter((l) => / error\[/.test(l));

Deno.test("a vars file's auth: block is the run's auth; a flow's own and auth: none still win", () =>
  withAuthRecorder(async (api) => {
    const files = {
      "f.yaml": `name: f
steps:
  - name: run_level
    request: {url: "${api.url}/run-level"}
  - name: opted_out
    auth: none
    request: {url: "${api.url}/none"}
  - name: own
    auth: {api_key: {name: x-api-key, value: "\${key_words}"}}
    request: {url: "${api.url}/own"}
`,
      "vars.yaml": `key_words: ${TOKEN}
auth:
  bearer:
    token: "\${key_words}"
`,
    };
    const r = await cli("run", files, ["--vars-file", "DIR/vars.yaml"]);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    const by = Object.fromEntries(api.seen.map((s) => [s.path, s]));
    assert.equal(by["/run-level"].authorization, `Bearer ${TOKEN}`);
    assert.equal(by["/none"].authorization, null);
    assert.equal(by["/own"].authorization, null);
    assert.equal(by["/own"].key, TOKEN);
    assert.match(r.stdout, /authorization: \*\*\*/i, r.stdout);
    assertNoToken([r.stdout, r.stderr, r.report, r.log]);
    // The block is no var: nothing warns of it, and validate agrees with the run.
    const v = await cli("validate", files, ["--vars-file", "DIR/vars.yaml"]);
    assert.equal(v.code, 0, v.stdout + v.stderr);
    assert.match(v.stdout, /1 flow file checked: no problems/);
  }));

Deno.test("a basic block in a JSON vars file reads its names; a single-valued auth stays a var", () =>
  withAuthRecorder(async (api) => {
    const files = {
      "f.yaml": `name: f
steps:
  - name: a
    request: {url: "${api.url}/a", headers: {x-mode: "\${auth}"}}
`,
      "vars.json": JSON.stringify({
        user: "ann",
        words: TOKEN,
        auth: { basic: { username: "${user}", password: "${words}" } },
      }),
      "plain.yaml": "auth: sso\n",
    };
    const r = await cli("run", files, [
      "--vars-file",
      "DIR/vars.json",
      "--vars-file",
      "DIR/plain.yaml",
    ]);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.equal(api.seen[0].authorization, `Basic ${btoa(`ann:${TOKEN}`)}`);
    assert.match(r.stdout, /> x-mode: sso/, r.stdout);
    assertNoToken([r.stdout, r.stderr, r.report, r.log]);
  }));

Deno.test("the run's auth given twice is a positioned problem, the same from run and validate", () =>
  withAuthRecorder(async (api) => {
    const files = {
      "f.yaml": `name: f
steps:
  - name: a
    request: {url: "${api.url}/a"}
`,
      "vars.yaml": `key_words: ${TOKEN}\nauth:\n  bearer: {token: "\${key_words}"}\n`,
      "more.yaml": `# the second\nauth:\n  api_key: {name: x-api-key, value: "\${key_words}"}\n`,
      "auth.yaml": 'auth:\n  bearer: {token: "${ENV.API_TOKEN:-t}"}\n',
    };
    const withFile = ["--vars-file", "DIR/vars.yaml", "--auth-file", "DIR/auth.yaml"];
    const run = await cli("run", files, withFile);
    assert.equal(run.code, 2, run.stdout + run.stderr);
    assert.deepEqual(problemLines(run.stderr), [
      "vars.yaml:2:1 error[run-auth-twice]: The run's auth is given twice: by this auth: block " +
      "and by --auth-file auth.yaml.",
    ]);
    assert.match(run.stderr, /hint: Keep one of the two: delete this block, or drop --auth-file/);
    const validate = await cli("validate", files, withFile);
    assert.equal(validate.code, 2);
    assert.deepEqual(problemLines(validate.stdout), problemLines(run.stderr));

    const two = ["--vars-file", "DIR/vars.yaml", "--vars-file", "DIR/more.yaml"];
    const twice = await cli("validate", files, two);
    assert.equal(twice.code, 2);
    assert.deepEqual(problemLines(twice.stdout), [
      "more.yaml:2:1 error[run-auth-twice]: The run's auth is given twice: by this auth: block " +
      "and by --vars-file vars.yaml's auth: block.",
    ]);
    assert.equal((await cli("run", files, two)).code, 2);
    assert.equal(api.seen.length, 0, "nothing is sent");
    assertNoToken([run.stdout, run.stderr, validate.stdout, twice.stdout]);
  }));

Deno.test("a vars file's auth is checked as an auth file's, by run and validate alike", async () => {
  const files = {
    "f.yaml": `name: f
steps:
  - name: a
    request: {url: "http://127.0.0.1:9/a"}
`,
    "vars.yaml": `user: ann
auth:
  basic:
    username: "\${user}"
    password: hunter2-literal
  x: 1
`,
    "capture.yaml": 'auth:\n  bearer: {token: "${steps.login.capture.token}"}\n',
  };
  const run = await cli("run", files, ["--vars-file", "DIR/vars.yaml"]);
  const validate = await cli("validate", files, ["--vars-file", "DIR/vars.yaml"]);
  assert.equal(run.code, 2, run.stdout + run.stderr);
  assert.equal(validate.code, 2);
  const lines = problemLines(run.stderr);
  assert.deepEqual(lines.map((l) => /^(\S+) error\[([a-z-]+)\]/.exec(l)?.slice(1).join(" ")), [
    "vars.yaml:5:15 literal-credential",
    "vars.yaml:6:3 unknown-key",
  ]);
  assert.deepEqual(problemLines(validate.stdout), lines);

  const capture = await cli("validate", files, ["--vars-file", "DIR/capture.yaml"]);
  assert.equal(capture.code, 2);
  assert.match(
    capture.stdout,
    /capture\.yaml:2:20 error\[step-in-auth-file\]: A vars file's auth: block cannot read a step's capture/,
  );
});
