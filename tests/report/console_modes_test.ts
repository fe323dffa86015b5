/**
 * Output for people in a hurry: console modes (detailed, compact, failures),
 * flows printed as they end, a recap of the failures, colour switches, the
 * progress line on a terminal, -v/-vv exchanges, the failing source line with
 * a caret, the actual elements of a list, a curl command with secrets as
 * variables, GitHub annotations and job summary, and JUnit class names as
 * Jenkins reads them. Every run is the CLI as a subprocess against a local
 * server.
 */
import assert from "node:assert/strict";
import { XMLParser } from "fast-xml-parser";
import { root, runCli } from "../support/cli.ts";

function serve() {
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const path = new URL(req.url).pathname;
    if (path === "/slow") await new Promise((r) => setTimeout(r, 600));
    if (path === "/items") {
      return Response.json({ items: Array.from({ length: 300 }, (_, i) => ({ id: i + 1 })) });
    }
    return Response.json({ path, auth: req.headers.get("authorization") });
  });
  return { url: `http://127.0.0.1:${server.addr.port}`, close: () => server.shutdown() };
}

/** Three flows: a slow passing one first in path order, a failing one, a fast passing one. */
async function suite(url: string): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-console-" });
  await Deno.writeTextFile(
    `${dir}/a_slow.yaml`,
    `name: slow\nsteps:\n  - name: wait\n    request: {url: "${url}/slow"}\n    assert: {status: 200}\n`,
  );
  await Deno.writeTextFile(
    `${dir}/b_fail.yaml`,
    `name: items, counted
steps:
  - name: list
    request:
      url: "${url}/items"
      headers: {Authorization: "Bearer \${ENV.API_TOKEN}"}
    assert:
      status: 200
      json:
        - {path: $.json.items, length: 3}
`,
  );
  await Deno.writeTextFile(
    `${dir}/c_fast.yaml`,
    `name: fast\nsteps:\n  - name: ping\n    request: {url: "${url}/ping"}\n    assert: {status: 200}\n`,
  );
  return dir;
}

const TOKEN = "tok-5ecr3t-9f8e7d";

Deno.test("compact, detailed and failures modes; flows print as they end; a recap points at failures", async () => {
  const api = serve();
  const dir = await suite(api.url);
  const env = { API_TOKEN: TOKEN };
  try {
    // Not a terminal: compact by default. The fast flow ends before the slow one and prints first.
    const compact = await runCli(["run", dir, "--jobs", "3"], { env });
    assert.equal(compact.code, 1);
    const lines = compact.stdout.split("\n");
    const fast = lines.findIndex((l) => /^✔ .*c_fast\.yaml · fast \d+ ms · 1 step$/.test(l));
    const slow = lines.findIndex((l) => /^✔ .*a_slow\.yaml · slow \d+ ms · 1 step$/.test(l));
    assert.ok(fast > 0 && slow > fast, compact.stdout);
    assert.doesNotMatch(compact.stdout, /✔ ping|✔ wait/, "passing flows are one line each");
    assert.match(compact.stdout, /✘ .*b_fail\.yaml · items, counted \d+ ms\n {4}✘ list/);
    // The recap, in path order, then the summary: the last lines point at the failure.
    const tail = compact.stdout.trimEnd().split("\n").slice(-4);
    assert.match(tail[0], /^Failures:$/);
    assert.match(
      tail[1],
      /^ {2}✘ .*b_fail\.yaml:10:32 {2}items, counted › list: \$\.json\.items: expected length 3, got 300$/,
    );
    assert.equal(tail[2], "");
    assert.match(tail[3], /^3 flows: 2 passed, 1 failed/);

    const detailed = await runCli(["run", dir, "--console", "detailed"], { env });
    assert.match(detailed.stdout, /✔ .*a_slow\.yaml · slow \d+ ms\n {4}✔ wait +\d+ ms\n/);

    const failures = await runCli(["run", dir, "--console", "failures"], { env });
    assert.doesNotMatch(failures.stdout, /a_slow|c_fast/);
    assert.match(failures.stdout, /b_fail\.yaml · items, counted/);

    const bad = await runCli(["run", dir, "--console", "short"], { env });
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /error\[bad-console\]: --console "short" is not a console mode/);
  } finally {
    await api.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a failure shows its source line with a caret, the actual list, a pretty body and a curl command", async () => {
  const api = serve();
  const dir = await suite(api.url);
  try {
    const run = await runCli(["run", `${dir}/b_fail.yaml`], { env: { API_TOKEN: TOKEN } });
    assert.equal(run.code, 1);
    assert.match(
      run.stdout,
      / {10}10 \| {9}- \{path: \$\.json\.items, length: 3\}\n {13}\| {32}\^\n/,
    );
    assert.match(run.stdout, / {10}actual: \[\{"id":1\},\{"id":2\},/);
    // The body pretty-printed (short lists and maps share lines), a screenful, then how much more.
    assert.match(
      run.stdout,
      /response body \(application\/json\):\n {10}\{\n {12}"items": \[\n {14}\{"id":1\}, \{"id":2\}, /,
    );
    assert.match(run.stdout, /… \d+ more lines \(-vv shows all\)/);
    // The curl command names the variable that holds the secret; the value is nowhere.
    assert.match(
      run.stdout,
      new RegExp(`curl: curl '${api.url}/items' -H 'Authorization: Bearer '"\\$API_TOKEN"\n`),
    );
    assert.ok(!run.stdout.includes(TOKEN));

    // -vv: every line of the body, and the exchange of a passing step too.
    const vv = await runCli(["run", `${dir}/b_fail.yaml`, `${dir}/c_fast.yaml`, "-vv"], {
      env: { API_TOKEN: TOKEN },
    });
    assert.doesNotMatch(vv.stdout, /more lines/);
    assert.match(vv.stdout, /\{"id":300\}\n {12}\]\n {10}\}\n/);
    assert.match(vv.stdout, /✔ ping +\d+ ms\n {8}GET http:\/\/127\.0\.0\.1:\d+\/ping → 200\n/);
    assert.match(vv.stdout, /< content-type: application\/json\n/);
    assert.match(vv.stdout, /> Authorization: \*\*\*\n/);
    assert.ok(!vv.stdout.includes(TOKEN));
  } finally {
    await api.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("colour: --color and FORCE_COLOR force it, --no-color and NO_COLOR take it away", async () => {
  const api = serve();
  const dir = await suite(api.url);
  const file = `${dir}/c_fast.yaml`;
  const ansi = new RegExp("\x1b\\[");
  try {
    assert.doesNotMatch((await runCli(["run", file])).stdout, ansi, "not a terminal: none");
    assert.match((await runCli(["run", file, "--color"])).stdout, ansi);
    assert.match((await runCli(["run", file], { env: { FORCE_COLOR: "1" } })).stdout, ansi);
    // FORCE_COLOR wins over NO_COLOR (as in Node); FORCE_COLOR=0 turns colour off.
    assert.match(
      (await runCli(["run", file], { env: { FORCE_COLOR: "1", NO_COLOR: "1" } })).stdout,
      ansi,
    );
    assert.doesNotMatch((await runCli(["run", file], { env: { FORCE_COLOR: "0" } })).stdout, ansi);
    assert.doesNotMatch(
      (await runCli(["run", file, "--no-color"], { env: { FORCE_COLOR: "1" } })).stdout,
      ansi,
    );
  } finally {
    await api.close();
    await Deno.remove(dir, { recursive: true });
  }
});

/** Whether `script` (util-linux) can give a command a pseudo-terminal here. */
function hasScript(): boolean {
  try {
    return new Deno.Command("script", { args: ["--version"], stdout: "null", stderr: "null" })
      .outputSync().success;
  } catch {
    return false;
  }
}

Deno.test({
  name: "on a terminal: detailed by default, with a progress line that is erased before each block",
  ignore: !hasScript(),
  async fn() {
    const api = serve();
    const dir = await suite(api.url);
    try {
      const command = [
        Deno.execPath(),
        "run",
        "--allow-net",
        "--allow-read",
        "--allow-write",
        "--allow-env",
        `${root}cli.ts`,
        "run",
        dir,
        "--no-color",
      ].map((w) => `'${w}'`).join(" ");
      const out = await new Deno.Command("script", {
        args: ["-qec", command, "/dev/null"],
        env: { API_TOKEN: TOKEN, CI: "", DENO_NO_UPDATE_CHECK: "1" },
        stdin: "null",
      }).output();
      const text = new TextDecoder().decode(out.stdout).replaceAll("\r\n", "\n");
      assert.equal(out.code, 1, text);
      // Progress: done/total, failures so far, what runs; erased (\r + clear line) before output.
      // (The erase sequence, \r ESC [2K, is written as CLEAR to keep control characters out of regexps.)
      const plain = text.replaceAll("\r\x1b[2K", "CLEAR");
      assert.match(plain, /CLEAR\[0\/3\] running .*a_slow\.yaml/);
      assert.match(plain, /CLEAR\[2\/3\] 1 failed running .*a_slow\.yaml/);
      assert.match(plain, /CLEAR✔ .*a_slow\.yaml · slow \d+ ms\n {4}✔ wait/);
      // Nothing of the progress line is left after the summary.
      assert.match(text, /3 flows: 2 passed, 1 failed · [^\n]*\n$/);
    } finally {
      await api.close();
      await Deno.remove(dir, { recursive: true });
    }
  },
});

Deno.test("GitHub Actions: failures become ::error annotations on their line, and a job summary", async () => {
  const api = serve();
  const dir = await suite(api.url);
  const summary = `${dir}/summary.md`;
  const env = {
    API_TOKEN: TOKEN,
    GITHUB_ACTIONS: "true",
    GITHUB_STEP_SUMMARY: summary,
  };
  try {
    const run = await runCli(["run", dir, "--jobs", "1"], { env });
    assert.equal(run.code, 1);
    const annotations = run.stdout.split("\n").filter((l) => l.startsWith("::"));
    assert.equal(annotations.length, 1, run.stdout);
    // The flow's name has a comma: escaped in the property, so the annotation stays whole.
    assert.match(
      annotations[0],
      /^::error file=[^,]*b_fail\.yaml,line=10,col=32,title=items%2C counted › list::\$\.json\.items: expected length 3, got 300%0AGET http:\/\/127\.0\.0\.1:\d+\/items → 200$/,
    );
    const md = await Deno.readTextFile(summary);
    assert.match(md, /^### ❌ flowrun: 2 of 3 flows passed\n/);
    assert.match(
      md,
      /\| `[^`]*b_fail\.yaml:10:32` \| items, counted › list \| \$\.json\.items: expected length 3, got 300 \|/,
    );
    assert.match(md, /<summary>Reproduce<\/summary>/);
    assert.ok(!md.includes(TOKEN));

    // A broken flow is annotated like a compiler error, before anything is sent.
    await Deno.writeTextFile(`${dir}/d_broken.yaml`, "name: broken\nstep: []\n");
    const broken = await runCli(["run", dir], { env });
    assert.equal(broken.code, 2);
    assert.match(
      broken.stdout,
      /^::error file=[^,]*d_broken\.yaml,line=2,col=1,title=error[^:]*::/m,
    );

    const off = await runCli(["run", `${dir}/b_fail.yaml`, "--no-annotations"], { env });
    assert.doesNotMatch(off.stdout, /^::/m);
    // Text from a flow or a server never becomes a command: only flowrun's own lines start with ::.
    await Deno.remove(`${dir}/d_broken.yaml`);
    await Deno.writeTextFile(
      `${dir}/e_inject.yaml`,
      `name: "x\\n::add-mask::y"\nsteps:\n  - name: "s\\n::stop-commands::z"\n    request: {url: "${api.url}/::warning::w"}\n    assert: {status: 201}\n`,
    );
    const inject = await runCli(["run", `${dir}/e_inject.yaml`], { env });
    const commands = inject.stdout.split("\n").filter((l) => /^\s*::/.test(l));
    assert.equal(commands.length, 1, inject.stdout);
    assert.match(
      commands[0],
      /^::error file=.*title=x%0A%3A%3Aadd-mask%3A%3Ay › s%0A%3A%3Astop-commands%3A%3Az::/,
    );
  } finally {
    await api.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("JUnit: Jenkins shows each flow as its own class; failures carry the curl and reproduce lines", async () => {
  const api = serve();
  const dir = await suite(api.url);
  try {
    const run = await runCli(["run", dir, "--report-junit", `${dir}/j.xml`], {
      env: { API_TOKEN: TOKEN },
    });
    assert.equal(run.code, 1);
    const xml = new XMLParser({ ignoreAttributes: false }).parse(
      await Deno.readTextFile(`${dir}/j.xml`),
    );
    const cases = xml.testsuites.testsuite.flatMap((s: { testcase: unknown }) =>
      [s.testcase].flat()
    );
    for (const c of cases) {
      const classname: string = c["@_classname"];
      // Jenkins: package = before the last dot, class = after it. No dot: the class is the path.
      assert.equal(classname.lastIndexOf("."), -1, classname);
      assert.match(classname, /\/(a_slow|b_fail|c_fast)$/);
    }
    const failed = cases.find((c: { failure?: unknown }) => c.failure);
    const text: string = failed.failure["#text"];
    assert.match(text, /curl: curl '[^']*\/items' -H 'Authorization: Bearer '"\$API_TOKEN"/);
    assert.match(text, /reproduce: .*cli\.ts run .*b_fail\.yaml --run-id /);
    assert.ok(!text.includes(TOKEN));
  } finally {
    await api.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a 500-flow run with 2 failures: a short log that ends pointing at both", async () => {
  const api = serve();
  const dir = await Deno.makeTempDir({ prefix: "flowrun-500-" });
  try {
    for (let i = 0; i < 500; i++) {
      const status = i === 123 || i === 456 ? 201 : 200;
      await Deno.writeTextFile(
        `${dir}/f${String(i).padStart(3, "0")}.yaml`,
        `name: f${i}\nsteps:\n  - name: get\n    request: {url: "${api.url}/f${i}"}\n    assert: {status: ${status}}\n`,
      );
    }
    const compact = await runCli(["run", dir, "--jobs", "8"]);
    assert.equal(compact.code, 1);
    const lines = compact.stdout.trimEnd().split("\n");
    // A line per passing flow, the two failures in full, the recap and the summary.
    assert.ok(lines.length <= 498 + 2 * 12 + 8, `${lines.length} lines`);
    assert.deepEqual(
      lines.slice(-5).map((l) =>
        l.replace(/\/tmp\/[^ ]*\//, "DIR/").replace(/ · [\d.]+ m?s$/, " · TIME")
      ),
      [
        "Failures:",
        "  ✘ DIR/f123.yaml:5:14  f123 › get: status: expected 201, got 200",
        "  ✘ DIR/f456.yaml:5:14  f456 › get: status: expected 201, got 200",
        "",
        "500 flows: 498 passed, 2 failed · 500 steps: 498 passed, 2 failed · TIME",
      ],
    );
    const failures = await runCli(["run", dir, "--jobs", "8", "--console", "failures"]);
    assert.ok(failures.stdout.split("\n").length <= 40, failures.stdout);
  } finally {
    await api.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("GitLab: --report-codequality writes Code Climate findings on the failing lines", async () => {
  const api = serve();
  const dir = await suite(api.url);
  try {
    const run = await runCli(["run", dir, "--report-codequality", `${dir}/cq.json`], {
      env: { API_TOKEN: TOKEN },
    });
    assert.equal(run.code, 1);
    const issues = JSON.parse(await Deno.readTextFile(`${dir}/cq.json`));
    assert.equal(issues.length, 1);
    const [issue] = issues;
    assert.deepEqual(Object.keys(issue).sort(), [
      "check_name",
      "description",
      "fingerprint",
      "location",
      "severity",
    ]);
    assert.equal(issue.check_name, "flowrun/assertion");
    assert.equal(issue.severity, "major");
    assert.equal(
      issue.description,
      "items, counted › list: $.json.items: expected length 3, got 300",
    );
    assert.match(issue.location.path, /b_fail\.yaml$/);
    assert.deepEqual(issue.location.lines, { begin: 10 });
    assert.match(issue.fingerprint, /^[0-9a-f]{16}$/);
    // The same failure on the next run has the same fingerprint, so GitLab tracks it as one.
    await runCli(["run", dir, "--report-codequality", `${dir}/cq2.json`], {
      env: { API_TOKEN: TOKEN },
    });
    const again = JSON.parse(await Deno.readTextFile(`${dir}/cq2.json`));
    assert.equal(again[0].fingerprint, issue.fingerprint);

    // A broken flow file: one critical finding per problem, nothing else.
    await Deno.writeTextFile(`${dir}/d_broken.yaml`, "name: broken\nstep: []\n");
    const broken = await runCli(["run", dir, "--report-codequality", `${dir}/cq3.json`], {
      env: { API_TOKEN: TOKEN },
    });
    assert.equal(broken.code, 2);
    const problems = JSON.parse(await Deno.readTextFile(`${dir}/cq3.json`));
    assert.deepEqual(
      problems.map((p: { check_name: string; severity: string }) => [p.check_name, p.severity]),
      [["flowrun/unknown-key", "critical"]],
    );
  } finally {
    await api.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("the HTML report says where the run happened: CI, commit, platform, variables read", async () => {
  const api = serve();
  const dir = await suite(api.url);
  try {
    const run = await runCli(["run", `${dir}/b_fail.yaml`, "--report-html", `${dir}/r.html`], {
      env: {
        API_TOKEN: TOKEN,
        GITHUB_ACTIONS: "true",
        GITHUB_SHA: "0123456789abcdef0123456789abcdef01234567",
        GITHUB_SERVER_URL: "https://github.com",
        GITHUB_REPOSITORY: "acme/api",
        GITHUB_RUN_ID: "42",
        GITHUB_STEP_SUMMARY: `${dir}/summary.md`,
      },
    });
    assert.equal(run.code, 1);
    const html = await Deno.readTextFile(`${dir}/r.html`);
    const meta = html.slice(
      html.indexOf('<p class="meta">'),
      html.indexOf("</p>", html.indexOf('<p class="meta">')),
    );
    assert.match(meta, /<span>CI <b>github-actions<\/b><\/span>/);
    assert.match(
      meta,
      /<a href="https:\/\/github\.com\/acme\/api\/actions\/runs\/42" rel="noreferrer noopener">CI job<\/a>/,
    );
    assert.match(
      meta,
      /Commit <b class="mono" title="0123456789abcdef0123456789abcdef01234567">0123456789ab<\/b>/,
    );
    assert.match(meta, /<span>Platform <b>\w+ \w+<\/b><\/span>/);
    // The names of the variables the flows read, never their values.
    assert.match(meta, /<span>Environment variables read <b>API_TOKEN<\/b><\/span>/);
    assert.ok(!html.includes(TOKEN));
  } finally {
    await api.close();
    await Deno.remove(dir, { recursive: true });
  }
});
