/**
 * A `foreach` step run through the CLI against a local server
 * (lib/run/foreach.ts): one request per element with the element's value
 * and type, each iteration a step of its own in every report, the bound, an
 * empty list, a value that is not a list, a failing iteration, a cleanup
 * over a list, an include run per element, and secret elements masked in
 * the iterations' names.
 */
import assert from "node:assert/strict";
import { runCli, spawnCli } from "../support/cli.ts";

interface Seen {
  method: string;
  path: string;
  header: string | null;
  body: unknown;
}

/** A server whose `/list/<n>` lists n ids from 41, and whose DELETE of id 42 fails (not under /gone/). */
function serve() {
  const seen: Seen[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const url = new URL(req.url);
    const text = await req.text();
    seen.push({
      method: req.method,
      path: url.pathname + url.search,
      header: req.headers.get("x-id"),
      body: text === "" ? null : JSON.parse(text),
    });
    const count = /^\/list\/(\d+)$/.exec(url.pathname)?.[1];
    if (count !== undefined) {
      return Response.json({ ids: Array.from({ length: Number(count) }, (_, i) => 41 + i) });
    }
    if (url.pathname === "/text") return Response.json({ ids: "41,42" });
    // Each /poll/<id> is ready at its second request.
    if (url.pathname.startsWith("/poll/")) {
      const ready = seen.filter((s) => s.path === url.pathname).length >= 2;
      return Response.json({ state: ready ? "ready" : "pending" });
    }
    if (url.pathname === "/tokens") {
      return Response.json({ keys: ["key-aaaa-1111-secret", "key-bbbb-2222-secret"] });
    }
    if (
      req.method === "DELETE" && url.pathname.endsWith("/42") && !url.pathname.startsWith("/gone/")
    ) {
      return new Response("locked", { status: 409 });
    }
    return Response.json({ made: url.pathname }, { status: req.method === "POST" ? 201 : 200 });
  });
  const url = `http://127.0.0.1:${server.addr.port}`;
  return { url, seen, close: () => server.shutdown() };
}

interface StepReport {
  name: string;
  status: string;
  message?: string;
  failure_kind?: string;
  file?: string;
}

/** Runs `flow` (with `URL` replaced by the server's) and parses the JSON and JUnit reports back. */
async function run(flow: string, files: Record<string, string> = {}, args: string[] = []) {
  const api = serve();
  const dir = await Deno.makeTempDir({ prefix: "flowrun-foreach-" });
  try {
    for (const [name, text] of Object.entries({ ...files, "f.yaml": flow })) {
      await Deno.writeTextFile(`${dir}/${name}`, text.replaceAll("URL", api.url));
    }
    const cli = await runCli([
      "run",
      `${dir}/f.yaml`,
      "--report-json",
      `${dir}/r.json`,
      "--report-junit",
      `${dir}/j.xml`,
      "--log-file",
      `${dir}/log.jsonl`,
      "--report-html",
      `${dir}/r.html`,
      ...args,
    ]);
    const report = JSON.parse(await Deno.readTextFile(`${dir}/r.json`));
    const junit = await Deno.readTextFile(`${dir}/j.xml`);
    const log = await Deno.readTextFile(`${dir}/log.jsonl`);
    const html = await Deno.readTextFile(`${dir}/r.html`);
    const steps = report.flows[0].steps as StepReport[];
    const testcases = [...junit.matchAll(/<testcase [^>]*name="([^"]*)"/g)].map((m) => m[1]);
    return { cli, report, steps, junit, testcases, log, html, seen: api.seen, dir };
  } finally {
    await api.close();
    await Deno.remove(dir, { recursive: true });
  }
}

const LIST = `  - name: list
    request: {url: "URL/list/3"}
    capture: {ids: $.json.ids}
`;

Deno.test("a list of 3 sends 3 requests, each with its element (typed) and index", async () => {
  const r = await run(
    `name: each
steps:
${LIST}  - name: make
    foreach: "\${steps.list.capture.ids}"
    as: id
    request:
      method: POST
      url: "URL/items/\${vars.id}?i=\${vars.id_index}"
      headers: {x-id: "\${id}"}
      body: {id: "\${vars.id}", at: "\${id_index}"}
    capture: {made: $.json.made}
    assert: {status: 201}
  - name: show
    request: {method: POST, url: "URL/show", body: {made: "\${steps.make.capture.made}"}}
`,
    {},
    ["-v"],
  );
  assert.equal(r.cli.code, 0, r.cli.stdout + r.cli.stderr);
  const posts = r.seen.filter((s) => s.path.startsWith("/items/"));
  assert.deepEqual(posts.map((s) => s.path), ["/items/41?i=0", "/items/42?i=1", "/items/43?i=2"]);
  assert.deepEqual(posts.map((s) => s.header), ["41", "42", "43"]);
  // An exact single expression keeps the element's JSON type: numbers, not strings.
  assert.deepEqual(posts.map((s) => s.body), [
    { id: 41, at: 0 },
    { id: 42, at: 1 },
    { id: 43, at: 2 },
  ]);
  // The step's captures are lists, one value per iteration.
  assert.deepEqual(r.seen.at(-1)?.body, { made: ["/items/41", "/items/42", "/items/43"] });
  const names = ["list", "make [0] (id=41)", "make [1] (id=42)", "make [2] (id=43)", "show"];
  assert.deepEqual(r.steps.map((s) => s.name), names);
  assert.deepEqual(r.steps.map((s) => s.status), names.map(() => "passed"));
  assert.deepEqual(r.testcases, names);
  assert.match(r.cli.stdout, /✔ make \[1\] \(id=42\)/);
  const ends = r.log.trim().split("\n").map((l) => JSON.parse(l)).filter((e) =>
    e.event === "step_end"
  );
  assert.deepEqual(ends.map((e) => e.step), names);
  // The request and response lines of an iteration name it too.
  const requests = r.log.trim().split("\n").map((l) => JSON.parse(l)).filter((e) =>
    e.event === "request" || e.event === "response"
  );
  assert.deepEqual(requests.map((e) => e.step), names.flatMap((n) => [n, n]));
  assert.equal(r.report.totals.steps.passed, 5);
});

Deno.test("an empty list skips the step with the reason, and the flow goes on", async () => {
  const r = await run(`name: empty
steps:
  - name: list
    request: {url: "URL/list/0"}
    capture: {ids: $.json.ids}
  - name: make
    foreach: "\${steps.list.capture.ids}"
    request: {method: POST, url: "URL/items/\${vars.item}"}
    capture: {made: $.json.made}
  - name: again
    foreach: "\${steps.make.capture.made}"
    request: {method: POST, url: "URL/again/\${vars.item}"}
  - name: after
    request: {url: "URL/after"}
`);
  assert.equal(r.cli.code, 0, r.cli.stdout + r.cli.stderr);
  assert.deepEqual(r.steps.map((s) => [s.name, s.status, s.failure_kind]), [
    ["list", "passed", undefined],
    ["make", "skipped", "condition"],
    ["again", "skipped", "condition"],
    ["after", "passed", undefined],
  ]);
  assert.equal(
    r.steps[1].message,
    'Skipped: the foreach list "${steps.list.capture.ids}" is empty.',
  );
  assert.deepEqual(r.seen.map((s) => s.path), ["/list/0", "/after"]);
  assert.equal(r.report.flows[0].status, "passed");
});

Deno.test("a value that is not a list, or a list over the bound, is an error of the step", async () => {
  const notList = await run(`name: not a list
steps:
  - name: list
    request: {url: "URL/text"}
    capture: {ids: $.json.ids}
  - name: make
    foreach: "\${steps.list.capture.ids}"
    request: {method: POST, url: "URL/items/\${vars.item}"}
  - name: after
    request: {url: "URL/after"}
`);
  assert.equal(notList.cli.code, 1, notList.cli.stdout + notList.cli.stderr);
  const [, make, after] = notList.steps;
  assert.equal(make.status, "error");
  assert.equal(make.failure_kind, "expression");
  assert.match(
    make.message!,
    /^The foreach list "\$\{steps\.list\.capture\.ids\}" is the string "41,42", not a list\. /,
  );
  assert.equal(after.status, "skipped");
  assert.deepEqual(notList.seen.map((s) => s.path), ["/text"]);

  const over = await run(`name: over
steps:
  - name: list
    request: {url: "URL/list/4"}
    capture: {ids: $.json.ids}
  - name: make
    foreach: "\${steps.list.capture.ids}"
    max_iterations: 3
    request: {method: POST, url: "URL/items/\${vars.item}"}
`);
  assert.equal(over.cli.code, 1);
  assert.equal(over.steps[1].name, "make");
  assert.equal(over.steps[1].status, "error");
  assert.match(
    over.steps[1].message!,
    /has 4 elements, more than its bound of 3\. Raise max_iterations \(at most 10000\)/,
  );
  // Never cut short: not one element was sent.
  assert.deepEqual(over.seen.map((s) => s.path), ["/list/4"]);
});

Deno.test("a failing iteration stops the flow; a cleanup foreach still runs every element", async () => {
  const r = await run(`name: fail
steps:
${LIST}  - name: delete
    foreach: "\${steps.list.capture.ids}"
    as: id
    request: {method: DELETE, url: "URL/items/\${vars.id}"}
    assert: {status: 200}
  - name: after
    request: {url: "URL/after"}
  - name: cleanup
    always: true
    if: {value: "\${steps.list.capture.ids}", exists: true}
    foreach: "\${steps.list.capture.ids}"
    as: id
    request: {method: DELETE, url: "URL/cleanup/\${vars.id}"}
    assert: {status: 200}
`);
  assert.equal(r.cli.code, 1, r.cli.stdout + r.cli.stderr);
  assert.deepEqual(r.steps.map((s) => [s.name, s.status]), [
    ["list", "passed"],
    ["delete [0] (id=41)", "passed"],
    ["delete [1] (id=42)", "failed"],
    ["delete [2] (id=43)", "skipped"],
    ["after", "skipped"],
    ["cleanup [0] (id=41)", "passed"],
    ["cleanup [1] (id=42)", "failed"],
    ["cleanup [2] (id=43)", "passed"],
  ]);
  assert.equal(r.steps[3].message, 'Skipped because step "delete [1] (id=42)" failed.');
  assert.equal(r.steps[4].message, 'Skipped because step "delete [1] (id=42)" failed.');
  assert.deepEqual(r.seen.map((s) => `${s.method} ${s.path}`), [
    "GET /list/3",
    "DELETE /items/41",
    "DELETE /items/42",
    "DELETE /cleanup/41",
    "DELETE /cleanup/42",
    "DELETE /cleanup/43",
  ]);
  assert.match(r.junit, /<testcase [^>]*name="delete \[1\] \(id=42\)"[^>]*>\s*<failure/);
  assert.equal(r.report.flows[0].status, "failed");
});

Deno.test("an include step runs once per element, its steps named by the iteration", async () => {
  const r = await run(
    `name: drop all
steps:
${LIST}  - name: drop
    foreach: "\${steps.list.capture.ids}"
    as: n
    include: del.yaml
    with: {id: "\${vars.n}"}
  - name: show
    request: {method: POST, url: "URL/show", body: {gone: "\${steps.drop.gone}"}}
`,
    {
      "del.yaml": `name: del
vars: {id: 0}
steps:
  - name: delete
    request: {method: DELETE, url: "URL/gone/\${vars.id}"}
    capture: {made: $.json.made}
outputs:
  gone: "\${steps.delete.capture.made}"
`,
    },
  );
  assert.equal(r.cli.code, 0, r.cli.stdout + r.cli.stderr);
  const names = [
    "list",
    "drop [0] (n=41) › delete",
    "drop [1] (n=42) › delete",
    "drop [2] (n=43) › delete",
    "show",
  ];
  assert.deepEqual(r.steps.map((s) => s.name), names);
  assert.deepEqual(r.testcases, names);
  assert.ok(r.steps[1].file?.endsWith("del.yaml"), JSON.stringify(r.steps[1]));
  assert.deepEqual(r.seen.at(-1)?.body, { gone: ["/gone/41", "/gone/42", "/gone/43"] });
});

Deno.test("an include iteration that fails stops the flow; the rest are reported skipped", async () => {
  const r = await run(
    `name: drop all
steps:
${LIST}  - name: drop
    foreach: "\${steps.list.capture.ids}"
    include: del.yaml
    with: {id: "\${vars.item}"}
`,
    {
      "del.yaml":
        'name: del\nvars: {id: 0}\nsteps:\n  - name: delete\n    request: {method: DELETE, url: "URL/items/${vars.id}"}\n    assert: {status: 200}\n',
    },
  );
  assert.equal(r.cli.code, 1);
  assert.deepEqual(r.steps.map((s) => [s.name, s.status]), [
    ["list", "passed"],
    ["drop [0] (item=41) › delete", "passed"],
    ["drop [1] (item=42) › delete", "failed"],
    ["drop [2] (item=43) › delete", "skipped"],
  ]);
  assert.equal(
    r.steps[3].message,
    'Skipped because step "drop [1] (item=42) › delete" failed.',
  );
});

Deno.test("secret elements are masked in the iterations' names in every report", async () => {
  const r = await run(
    `name: keys
steps:
  - name: keys
    request: {url: "URL/tokens"}
    capture: {keys: $.json.keys}
  - name: revoke
    foreach: "\${steps.keys.capture.keys}"
    as: api_key
    request: {method: POST, url: "URL/revoke", body: {key: "\${vars.api_key}"}}
`,
    {},
    ["-v"],
  );
  assert.equal(r.cli.code, 0, r.cli.stdout + r.cli.stderr);
  // Sent as they are...
  assert.deepEqual(r.seen.slice(1).map((s) => s.body), [
    { key: "key-aaaa-1111-secret" },
    { key: "key-bbbb-2222-secret" },
  ]);
  // ...but never written: every artifact names the iteration with the value masked.
  assert.deepEqual(r.steps.slice(1).map((s) => s.name), [
    "revoke [0] (api_key=***)",
    "revoke [1] (api_key=***)",
  ]);
  assert.deepEqual(r.testcases.slice(1), r.steps.slice(1).map((s) => s.name));
  assert.ok(r.html.includes("revoke [1] (api_key=***)"), "the HTML report names the iteration");
  for (
    const text of [r.cli.stdout, r.cli.stderr, r.junit, r.log, r.html, JSON.stringify(r.report)]
  ) {
    assert.doesNotMatch(text, /key-aaaa|key-bbbb/);
  }
  assert.match(r.cli.stdout, /revoke \[1\] \(api_key=\*\*\*\)/);
});

Deno.test("each iteration of a polling step polls on its own", async () => {
  const r = await run(`name: poll each
steps:
  - name: wait
    foreach: [a, b]
    loop: {max_attempts: 3, sleep_ms: 0, until: {json: [{path: $.json.state, equals: ready}]}}
    request: {url: "URL/poll/\${vars.item}"}
`);
  assert.equal(r.cli.code, 0, r.cli.stdout + r.cli.stderr);
  assert.deepEqual(r.seen.map((s) => s.path), ["/poll/a", "/poll/a", "/poll/b", "/poll/b"]);
  assert.deepEqual(
    r.steps.map((s) => [s.name, s.status, (s as { attempts?: number }).attempts]),
    [["wait [0] (item=a)", "passed", 2], ["wait [1] (item=b)", "passed", 2]],
  );
});

Deno.test("map elements: sent whole or by field, and named by their index alone", async () => {
  const r = await run(`name: maps
steps:
  - name: put
    foreach: [{id: 7, name: tea}, {id: 8, name: "a b"}]
    as: it
    request: {method: POST, url: "URL/m/\${vars.it.id}", body: {whole: "\${vars.it}", n: "\${vars.it.name}"}}
`);
  assert.equal(r.cli.code, 0, r.cli.stdout + r.cli.stderr);
  assert.deepEqual(r.seen.map((s) => [s.path, s.body]), [
    ["/m/7", { whole: { id: 7, name: "tea" }, n: "tea" }],
    ["/m/8", { whole: { id: 8, name: "a b" }, n: "a b" }],
  ]);
  assert.deepEqual(r.testcases, ["put [0]", "put [1]"]);
});

Deno.test("an interrupt skips the iterations left; a cleanup foreach still runs each", async () => {
  const seen: string[] = [];
  let reached = () => {};
  const hung = new Promise<void>((resolve) => reached = resolve);
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const path = new URL(req.url).pathname;
    seen.push(`${req.method} ${path}`);
    if (path === "/hang/2") {
      reached();
      await new Promise((resolve) => {
        req.signal.addEventListener("abort", resolve);
        setTimeout(resolve, 5000);
      });
    }
    return new Response("ok");
  });
  const url = `http://127.0.0.1:${server.addr.port}`;
  const dir = await Deno.makeTempDir({ prefix: "flowrun-foreach-" });
  try {
    await Deno.writeTextFile(
      `${dir}/f.yaml`,
      `name: stop
steps:
  - name: get
    foreach: [1, 2, 3]
    request: {url: "${url}/hang/\${vars.item}"}
  - name: cleanup
    always: true
    foreach: [1, 2, 3]
    request: {method: DELETE, url: "${url}/items/\${vars.item}"}
`,
    );
    const child = spawnCli(["run", `${dir}/f.yaml`, "--report-json", `${dir}/r.json`], {
      stdout: "null",
    });
    await hung;
    child.kill("SIGINT");
    const { code } = await child.output();
    assert.equal(code, 130);
    const report = JSON.parse(await Deno.readTextFile(`${dir}/r.json`));
    const steps = report.flows[0].steps as StepReport[];
    assert.deepEqual(steps.map((s) => [s.name, s.status, s.failure_kind]), [
      ["get [0] (item=1)", "passed", undefined],
      ["get [1] (item=2)", "skipped", "interrupted"],
      ["get [2] (item=3)", "skipped", "interrupted"],
      ["cleanup [0] (item=1)", "passed", undefined],
      ["cleanup [1] (item=2)", "passed", undefined],
      ["cleanup [2] (item=3)", "passed", undefined],
    ]);
    assert.deepEqual(seen.filter((s) => s.startsWith("DELETE")), [
      "DELETE /items/1",
      "DELETE /items/2",
      "DELETE /items/3",
    ]);
    assert.ok(!seen.includes("GET /hang/3"), seen.join());
  } finally {
    await server.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("an include step's own assert and capture run per iteration and read the element", async () => {
  const r = await run(
    `name: checked
steps:
  - name: each
    foreach: [5, 6]
    as: n
    include: make.yaml
    with: {id: "\${vars.n}"}
    capture: {made: $.json.made}
    assert: {status: 201, json: [{path: $.json.made, equals: "/made/\${vars.n}"}]}
  - name: after
    request: {method: POST, url: "URL/after", body: {made: "\${steps.each.capture.made}"}}
`,
    {
      "make.yaml":
        'name: make\nvars: {id: 0}\nsteps:\n  - name: post\n    request: {method: POST, url: "URL/made/${vars.id}"}\n',
    },
  );
  assert.equal(r.cli.code, 0, r.cli.stdout + r.cli.stderr);
  assert.deepEqual(r.seen.at(-1)?.body, { made: ["/made/5", "/made/6"] });
  assert.deepEqual(r.testcases, [
    "each [0] (n=5) › post",
    "each [0] (n=5)",
    "each [1] (n=6) › post",
    "each [1] (n=6)",
    "after",
  ]);
});

Deno.test("an if that does not hold skips the step once, before its list is evaluated", async () => {
  const r = await run(`name: guarded
vars: {mode: quick}
steps:
  - name: list
    if: {value: "\${vars.mode}", equals: full}
    request: {url: "URL/list/3"}
    capture: {ids: $.json.ids}
  - name: delete
    always: true
    if: {value: "\${steps.list.capture.ids}", exists: true}
    foreach: "\${steps.list.capture.ids}"
    request: {method: DELETE, url: "URL/items/\${vars.item}"}
`);
  assert.equal(r.cli.code, 0, r.cli.stdout + r.cli.stderr);
  assert.deepEqual(r.steps.map((s) => [s.name, s.status, s.failure_kind]), [
    ["list", "skipped", "condition"],
    ["delete", "skipped", "condition"],
  ]);
  assert.deepEqual(r.seen, []);
});
