/**
 * `flowrun export artillery` as a user runs it (the CLI in a subprocess),
 * without Artillery: the folder it writes is self-contained (the script
 * and the processor it names, relative paths only); a secret set while
 * exporting never becomes a literal; captures, vars, random values and the
 * run id become the virtual user's variables; checks become expectations;
 * every kind of thing Artillery cannot express is named in the summary and
 * as a comment above its request; the load options give the phase and
 * their mistakes, and the TLS options' and --max-body's, are usage errors that
 * write nothing.
 * tests/export/artillery_real_test.ts runs the export with Artillery.
 */
import assert from "node:assert/strict";
import { parse } from "yaml";
import { runCli } from "../support/cli.ts";

const FIXTURES = new URL("../fixtures/export/", import.meta.url).pathname;
const SECRET = "pw-never-in-a-script-7f3a";

/** Exports `paths` into a new temp folder; resolves to the run and the folder's files. */
async function exported(paths: string[], options: string[] = [], env: Record<string, string> = {}) {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-export-" });
  const run = await runCli(["export", "artillery", ...paths, "-o", `${dir}/load`, ...options], {
    env,
  });
  const files = new Map<string, string>();
  const walk = async (sub: string) => {
    for await (const entry of Deno.readDir(`${dir}/load${sub}`)) {
      const path = `${sub}${entry.name}`.slice(1);
      if (entry.isDirectory) await walk(`${sub}${entry.name}/`);
      else files.set(path, await Deno.readTextFile(`${dir}/load/${path}`));
    }
  };
  if (await Deno.stat(`${dir}/load`).then(() => true, () => false)) await walk("/");
  await Deno.remove(dir, { recursive: true });
  return { run, files };
}

// deno-lint-ignore no-explicit-any
type Any = any;

Deno.test("the export is a self-contained folder: the script and the processor it names", async () => {
  const { run, files } = await exported([`${FIXTURES}shop.yaml`], [
    "--users",
    "3",
    "--duration",
    "1s",
  ]);
  assert.equal(run.code, 0, run.stderr);
  assert.deepEqual([...files.keys()].sort(), ["artillery.yml", "flowrun-processor.js"]);
  const script: Any = parse(files.get("artillery.yml")!);
  assert.equal(script.config.processor, "./flowrun-processor.js");
  assert.deepEqual(script.config.phases, [{ name: "flowrun", duration: 1, arrivalCount: 3 }]);
  assert.equal(script.config.target, "{{ $env.SHOP_URL }}");
  assert.deepEqual(script.config.plugins.expect.reportFailuresAsErrors, true);
  // Every file the script names is beside it: a distributed runner uploads the folder as it is.
  const named = [
    ...files.get("artillery.yml")!.matchAll(/["']?(\.{0,2}\/[\w./-]+\.(?:js|csv|json))/g),
  ]
    .map((m) => m[1]);
  assert.deepEqual(named, ["./flowrun-processor.js"]);
  const processor = files.get("flowrun-processor.js")!;
  const names = /module\.exports = \{([^}]*)\}/.exec(processor)?.[1].split(",").map((n) =>
    n.trim()
  );
  assert.deepEqual(names?.filter(Boolean), [
    "flowrunStart",
    "flowrunOutputs",
    "flowrunBefore",
    "flowrunCollect",
    "flowrunCapture",
    "flowrunChecks",
    "flowrunUntil",
    "flowrunPolling",
    "flowrunIf1",
    "flowrunIf2",
  ]);
  assert.doesNotMatch(processor, /require\("(?!node:)/, "only Node's own modules");
});

Deno.test("a secret in the environment while exporting stays an environment reference", async () => {
  const { run, files } = await exported([`${FIXTURES}shop.yaml`], [], {
    SHOP_PASSWORD: SECRET,
    SHOP_URL: "http://127.0.0.1:9",
  });
  assert.equal(run.code, 0, run.stderr);
  for (const [name, text] of files) assert.ok(!text.includes(SECRET), `${name} holds the secret`);
  assert.ok(!run.stderr.includes(SECRET) && !run.stdout.includes(SECRET));
  const login: Any = (parse(files.get("artillery.yml")!) as Any).scenarios[0].flow[1].post;
  assert.equal(login.json.password, "{{ $env.SHOP_PASSWORD }}", "from the included flow");
  assert.match(
    run.stderr,
    /Set these environment variables where Artillery runs: SHOP_PASSWORD, SHOP_URL\./,
  );
});

Deno.test("captures, vars, includes, random values and the run id become the user's variables", async () => {
  const { run, files } = await exported([`${FIXTURES}shop.yaml`]);
  assert.equal(run.code, 0, run.stderr);
  const flow: Any[] = (parse(files.get("artillery.yml")!) as Any).scenarios[0].flow;
  assert.deepEqual(
    flow.map((item) => Object.keys(item)[0]),
    ["function", "post", "function", "post", "function", "delete", "function", "get"],
  );
  assert.equal(flow[0].function, "flowrunStart");
  assert.equal(flow[2].function, "flowrunBefore", "fresh random values before the request");
  assert.equal(flow[6].function, "flowrunBefore", "values encoded for the URL before the request");
  const [login, create, never, read] = [flow[1].post, flow[3].post, flow[5].delete, flow[7].get];
  // if: conditions are processor functions Artillery's ifTrue calls before the request.
  assert.equal(never.ifTrue, "flowrunIf1");
  assert.equal(read.ifTrue, "flowrunIf2");
  // The included login, inlined: `with` sets its user, the include step's check is on its
  // response, its output is the capture it names.
  assert.equal(login.name, "login › post");
  assert.deepEqual(login.json, { user: "ann", password: "{{ $env.SHOP_PASSWORD }}" });
  assert.deepEqual(login.capture, [{ json: "$.token", as: "f1_post__t" }]);
  assert.deepEqual(login.expect, [{ statusCode: 200 }]);
  assert.equal(login.headers["x-run"], "{{ $uuid }}", "the run id is Artillery's per-user id");
  assert.equal(create.headers.authorization, "Bearer {{ f1_post__t }}");
  assert.equal(read.headers.authorization, "Bearer {{ f1_post__t }}");
  assert.equal(create.headers["x-request-id"], "{{ f0_fresh_1 }}");
  assert.deepEqual(create.json, {
    name: "{{ f0_var_item_name }}",
    tag: "{{ f0_fresh_2 }}",
    qty: 2,
  });
  // Values land in the URL percent-encoded, as run sends them; the query's list as repeated keys.
  assert.equal(
    read.url,
    "{{ $env.SHOP_URL }}/items/{{ f0_url_2 }}/{{ f0_url_3 }}?q={{ f0_url_4 }}&tag=x&tag={{ f0_url_5 }}&id={{ f0_url_6 }}",
  );
  assert.equal(read.qs, undefined);
  const processor = files.get("flowrun-processor.js")!;
  assert.ok(
    processor.includes(`v["f0_var_item_name"] = "item-" + String(v["$uuid"] ?? "");`),
    processor,
  );
  assert.ok(
    processor.includes(`v["f0_fresh_1"] = uuid();`) &&
      processor.includes(`v["f0_fresh_2"] = hex(8);`),
  );
  assert.ok(processor.includes(`v["f0_url_2"] = encodeURIComponent(text(v["f0_create__id"]));`));
  assert.ok(processor.includes(`v["f0_url_3"] = encodeURIComponent(text(v["f0_var_note"]));`));
  // The checks the expect plugin has not go to the processor's hook, as data it renders.
  // A cookie, which Artillery cannot capture, is captured by the processor's hook.
  assert.deepEqual(create.flowrunCaptures, [{ as: "f0_create__receipt", cookie: "receipt" }]);
  assert.deepEqual(create.afterResponse, ["flowrunCapture", "flowrunChecks"]);
  assert.deepEqual(create.flowrunChecks, [
    { path: "$.json.name", at: ["json", "name"], op: "matches", expected: "^item-{{ $uuid }}$" },
    { path: "$.json.qty", at: ["json", "qty"], op: "type", expected: "integer" },
    {
      path: "$.json.name",
      at: ["json", "name"],
      op: "contains",
      expected: "{{ f0_var_item_name }}",
    },
    { path: "$.duration_ms", at: ["duration_ms"], op: "lt", expected: 60000 },
  ]);
  assert.match(processor, /function flowrunChecks\(req, res, context, events, next\)/);
  // The checks: status, a capture-fed equals, a typed comparison, a header.
  assert.deepEqual(create.expect[0], { statusCode: 201 });
  assert.deepEqual(create.expect[2], { jmespath: '"qty" >= `1`', description: "$.json.qty gte 1" });
  assert.deepEqual(read.expect.slice(2), [
    { jmespath: '"owner" == `"ann"`', description: '$.json.owner equals "ann"' },
    { hasHeader: "content-type" },
  ]);
  assert.match(run.stderr, /Every step, capture and check is expressed\./);
});

Deno.test("what Artillery cannot express is named in the summary and above its request", async () => {
  const { run, files } = await exported([`${FIXTURES}not_expressed.yaml`]);
  assert.equal(run.code, 0, run.stderr);
  const script = files.get("artillery.yml")!;
  const expected = [
    /odd shapes › poll: check \$\.json\.items\[\*\]\.id contains 1 is not expressed \(its path/,
    /odd shapes › poll: check \$\.cookies\.sid exists true is not expressed/,
    /odd shapes › poll: capture "title" \(xpath\) has no Artillery counterpart: not captured/,
    /odd shapes › upload: digest auth is not expressed: the request is sent without it/,
    /odd shapes › upload: the JSON Schema check is not expressed/,
  ];
  for (const line of expected) {
    assert.match(run.stderr, line);
    assert.match(script, new RegExp(`# Not expressed: ${line.source}`));
  }
  assert.match(run.stderr, /Not expressed \(5, also commented in the script\):/);
  // And above the request itself.
  assert.match(
    script,
    /# flowrun export: capture "title"[^\n]*\n(?:\s+#[^\n]*\n)*\s+- loop:\n\s+- get:\n\s+name: poll/,
  );
  // The upload travels with the script: a copy in the folder, named relative to the script.
  assert.deepEqual([...files.keys()].sort(), [
    "artillery.yml",
    "files/1/a.txt",
    "flowrun-processor.js",
  ]);
  assert.equal(files.get("files/1/a.txt"), await Deno.readTextFile(`${FIXTURES}a.txt`));
  const upload: Any = (parse(script) as Any).scenarios[0].flow[2].post;
  assert.deepEqual(upload.formData, {
    title: "Notes",
    doc: { fromFile: "./files/1/a.txt", contentType: "text/plain" },
  });
  assert.match(run.stderr, /and 1 file it uploads under .*\/load\/files\//);
  // Polling is expressed: Artillery's loop, the processor judging each attempt.
  const poll: Any = (parse(script) as Any).scenarios[0].flow[1];
  assert.equal(poll.whileTrue, "flowrunPolling");
  assert.deepEqual(poll.loop[0].get.flowrunUntil, {
    checks: [{ path: "$.status", at: ["status"], op: "anyOf", expected: [200] }],
    max: 3,
    sleepMs: 100,
  });
  assert.deepEqual(poll.loop[0].get.afterResponse, ["flowrunUntil"]);
});

Deno.test("the load options give the phase; their mistakes are usage errors that write nothing", async () => {
  const ramp = await exported([`${FIXTURES}shop.yaml`], [
    "--rate",
    "2",
    "--ramp-to",
    "20",
    "--duration",
    "5m",
  ]);
  assert.equal(ramp.run.code, 0, ramp.run.stderr);
  assert.deepEqual((parse(ramp.files.get("artillery.yml")!) as Any).config.phases, [
    { name: "flowrun", duration: 300, arrivalRate: 2, rampTo: 20 },
  ]);
  const defaults = await exported([`${FIXTURES}shop.yaml`]);
  assert.deepEqual((parse(defaults.files.get("artillery.yml")!) as Any).config.phases, [
    { name: "flowrun", duration: 60, arrivalRate: 1 },
  ]);
  for (
    const [options, message] of [
      [["--duration", "60"], /Expected --duration to be whole seconds \(30s, 5m\), got "60"\./],
      [["--rate", "0"], /Expected --rate to be a whole number from 1 to 1000000, got "0"\./],
      [["--users", "3", "--rate", "2"], /--users 3 cannot be given with --rate or --ramp-to\./],
    ] as const
  ) {
    const { run, files } = await exported([`${FIXTURES}shop.yaml`], [...options]);
    assert.equal(run.code, 2, run.stderr);
    assert.match(run.stderr, /^error\[bad-load-option\]: /);
    assert.match(run.stderr, message);
    assert.equal(files.size, 0);
  }
});

Deno.test("a flow with problems, or an unknown engine, exports nothing (exit 2)", async () => {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-export-" });
  await Deno.writeTextFile(`${dir}/bad.yaml`, "name: bad\nstep: []\n");
  const bad = await exported([`${dir}/bad.yaml`]);
  assert.equal(bad.run.code, 2);
  assert.match(bad.run.stderr, /unknown-key/);
  assert.equal(bad.files.size, 0);
  await Deno.remove(dir, { recursive: true });
  const engine = await runCli(["export", "k6", `${FIXTURES}shop.yaml`, "-o", "x"]);
  assert.equal(engine.code, 2);
  assert.match(engine.stderr, /^error\[bad-command\]: Cannot export to "k6"\./);
  const help = await runCli(["export", "artillery", "--help"]);
  assert.equal(help.code, 0);
  assert.match(help.stdout, /^Usage: flowrun export artillery <path>\.\.\. -o DIR/);
});

Deno.test("a foreach step is Artillery's loop over its list, its captures collected into lists", async () => {
  const recipe = new URL("../../examples/recipes/foreach_cleanup.yaml", import.meta.url).pathname;
  const { run, files } = await exported([recipe]);
  assert.equal(run.code, 0, run.stderr);
  const flow: Any[] = (parse(files.get("artillery.yml")!) as Any).scenarios[0].flow;
  const [create, del] = flow.filter((item) => item.loop);
  assert.deepEqual(create.over, ["tea", "coffee", "cocoa"]);
  assert.equal(create.loopElement, "f0_var_drink");
  assert.equal(create.loop[0].post.json.name, "{{ f0_var_drink }}");
  assert.deepEqual(create.loop[0].post.flowrunCollect, [
    { from: "f0_create__id__each", to: "f0_create__id", index: "f0_var_drink_index" },
  ]);
  assert.equal(del.over, "f0_create__id", "the list the first loop collected");
  assert.doesNotMatch(run.stderr, /its foreach/, "no foreach left unexpressed");
});

Deno.test("a data-driven flow gives a scenario per row, the row's values its vars", async () => {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-export-" });
  await Deno.writeTextFile(
    `${dir}/users.yaml`,
    `name: create user
vars:
  role: guest
  team: core
data:
  - { name: admin, role: admin }
  - { name: viewer, role: viewer }
steps:
  - name: create
    request: { method: POST, url: "\${ENV.BASE_URL}/users", body: { user: "\${vars.name}", role: "\${vars.role}", team: "\${vars.team}" } }
`,
  );
  const { run, files } = await exported([`${dir}/users.yaml`]);
  await Deno.remove(dir, { recursive: true });
  assert.equal(run.code, 0, run.stderr);
  const script: Any = parse(files.get("artillery.yml")!);
  assert.deepEqual(script.scenarios.map((s: Any) => s.name), [
    "create user [admin]",
    "create user [viewer]",
  ]);
  assert.deepEqual(script.scenarios[1].flow[1].post.json, {
    user: "{{ f1_var_name }}",
    role: "{{ f1_var_role }}",
    team: "{{ f1_var_team }}",
  });
  const processor = files.get("flowrun-processor.js")!;
  // The row's value wins over the flow's var; a var the row leaves out keeps its default.
  assert.ok(processor.includes(`v["f0_var_role"] = "admin";`), processor);
  assert.ok(
    processor.includes(`v["f1_var_role"] = "viewer";`) &&
      processor.includes(`v["f1_var_team"] = "core";`),
  );
});

Deno.test("the TLS options' and --max-body's mistakes are run's usage errors, and write nothing", async () => {
  const cases: [string[], string, RegExp][] = [
    [["--cert", "client.pem"], "bad-cert", /--cert needs --key\./],
    [["--cacert", "no-such-ca.pem"], "bad-cacert", /no-such-ca\.pem/],
    [
      ["--max-body", "1"],
      "bad-max-body",
      /Expected --max-body to be a size from 1KiB to 4GiB, got "1"\./,
    ],
  ];
  for (const [options, code, message] of cases) {
    const { run, files } = await exported([`${FIXTURES}kinds_tls.yaml`], options);
    assert.equal(run.code, 2, run.stderr);
    assert.match(run.stderr, new RegExp(`error\\[${code}\\]`));
    assert.match(run.stderr, message);
    assert.equal(files.size, 0, "nothing is written");
  }
});
