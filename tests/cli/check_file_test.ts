/**
 * Check files (issue 40, item 4): a check group's `checks` may name a file
 * of checks, used from any flow: both spellings, flows in other folders,
 * included flows and the setup flow. Each file is read once and its
 * problems are listed once, in the file; a failed check is named with its
 * group and points into the file. The CLI runs as a subprocess against a
 * server the test starts.
 */
import assert from "node:assert/strict";
import { runCli } from "../support/cli.ts";

/** A server with a good article, one whose title is a number, and a profile. */
function articles() {
  let requests = 0;
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    requests++;
    const path = new URL(req.url).pathname;
    const author = { username: "jake", bio: null };
    if (path === "/profile") return Response.json({ profile: author });
    const title = path === "/articles/bad" ? 5 : "Welcome";
    return Response.json({ article: { slug: "welcome", title, author } });
  });
  return { server, base: `http://127.0.0.1:${server.addr.port}`, requests: () => requests };
}

/** Writes `files` (path → text) under a new temporary folder. */
async function tree(files: Record<string, string>): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-checkfile-" });
  for (const [path, text] of Object.entries(files)) {
    await Deno.mkdir(`${dir}/${path}`.replace(/\/[^/]*$/, ""), { recursive: true });
    await Deno.writeTextFile(`${dir}/${path}`, text);
  }
  return dir;
}

const ARTICLE = [
  "- {path: $.slug, type: string, name: slug}",
  "- {path: $.title, type: string, name: title}",
  "- {at: $.author, checks: profile.yaml, name: author}",
  "",
].join("\n");
const PROFILE = [
  "x-text: &text {type: string}",
  "checks:",
  "  - {path: $.username, <<: *text, name: username}",
  "",
].join("\n");

/** A flow of one step getting `url`, whose assert block is `assert` (one line of YAML). */
const flow = (name: string, url: string, assert: string) =>
  `name: ${name}\nsteps:\n  - name: get\n    request: {url: "${url}"}\n    assert: ${assert}\n`;

interface Report {
  flows: { name: string; steps: { assertions: { name?: string; passed: boolean }[] }[] }[];
}

Deno.test("a check file is used from both spellings, other folders, an include and the setup flow", async () => {
  const { server, base } = articles();
  const dir = await tree({
    "checks/article.yaml": ARTICLE,
    "checks/profile.yaml": PROFILE,
    "flows/a.yaml": flow(
      "spelling A",
      `${base}/articles/good`,
      "{json: [{at: $.json.article, checks: ../checks/article.yaml}]}",
    ),
    "flows/deeper/b.yaml": flow(
      "spelling B",
      `${base}/articles/good`,
      "{jsonpath: [{at: $.article, checks: ../../checks/article.yaml, name: article}]}",
    ),
    "flows/c.yaml":
      "name: included\nsteps:\n  - name: inc\n    include: ../common/get_article.yaml\n",
    "common/get_article.yaml": flow(
      "get article",
      `${base}/articles/good`,
      "{json: [{at: $.json.article, checks: ../checks/article.yaml}]}",
    ),
    "common/setup.yaml": flow(
      "setup",
      `${base}/profile`,
      "{json: [{at: $.json.profile, checks: ../checks/profile.yaml, name: me}]}",
    ) + "outputs: {user: jake}\n",
  });
  try {
    const r = await runCli(
      ["run", "flows", "--setup", "common/setup.yaml", "--report-json", "out.json"],
      { cwd: dir },
    );
    assert.equal(r.code, 0, r.stdout + r.stderr);
    const report: Report = JSON.parse(await Deno.readTextFile(`${dir}/out.json`));
    const names = (flowName: string) =>
      report.flows.find((f) => f.name === flowName)!.steps.flatMap((s) =>
        s.assertions.map((a) => a.name)
      );
    for (const name of ["spelling A", "spelling B", "included"]) {
      assert.deepEqual(
        names(name),
        ["article › slug", "article › title", "article › author › username"],
        name,
      );
    }
    assert.deepEqual(names("setup"), ["me › username"]);
  } finally {
    await server.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a failed check of a check file names its group and points into the file", async () => {
  const { server, base } = articles();
  const dir = await tree({
    "checks/article.yaml": ARTICLE,
    "checks/profile.yaml": PROFILE,
    "flows/a.yaml": flow(
      "a",
      `${base}/articles/bad`,
      "{json: [{at: $.json.article, checks: ../checks/article.yaml}]}",
    ),
  });
  try {
    const r = await runCli([
      "run",
      "flows",
      "--report-junit",
      "junit.xml",
      "--report-json",
      "r.json",
      "--log-file",
      "run.log",
    ], {
      cwd: dir,
    });
    assert.equal(r.code, 1, r.stdout + r.stderr);
    assert.match(r.stdout, /article › title: \$\.json\.article › \$\.title: expected type string/);
    assert.match(r.stdout, /at checks\/article\.yaml:2:19\n.*- \{path: \$\.title, type: string/);
    const junit = await Deno.readTextFile(`${dir}/junit.xml`);
    assert.match(junit, /at checks\/article\.yaml:2:19/);
    const report = JSON.parse(await Deno.readTextFile(`${dir}/r.json`));
    const failed = report.flows[0].steps[0].assertions.filter((a: { passed: boolean }) =>
      !a.passed
    );
    assert.deepEqual(
      failed.map((a: { file?: string; line: number }) => `${a.file}:${a.line}`),
      ["checks/article.yaml:2"],
    );
    const log = (await Deno.readTextFile(`${dir}/run.log`)).trim().split("\n").map((l) =>
      JSON.parse(l)
    );
    const failedLine = log.find((l) => l.event === "assertion" && !l.passed);
    assert.deepEqual([failedLine.check_file, failedLine.line], ["checks/article.yaml", 2]);
  } finally {
    await server.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a mistake in a check file many flows use is one problem, in the file, for run and validate", async () => {
  const { server, base, requests } = articles();
  const dir = await tree({
    "checks/article.yaml": "- {path: $.slug, type: string}\n- {path: $.title, tpye: string}\n",
    "flows/a.yaml": flow(
      "a",
      `${base}/a`,
      "{json: [{at: $.json.article, checks: ../checks/article.yaml}]}",
    ),
    "flows/b/b.yaml": flow(
      "b",
      `${base}/b`,
      "{jsonpath: [{at: $.article, checks: ../../checks/article.yaml}]}",
    ),
    "flows/c.yaml": "name: c\nsteps:\n  - name: inc\n    include: ../common/part.yaml\n",
    "common/part.yaml": flow(
      "part",
      `${base}/p`,
      "{json: [{at: $.json.article, checks: ../checks/article.yaml}]}",
    ),
    "common/setup.yaml": flow(
      "setup",
      `${base}/s`,
      "{json: [{at: $.json.article, checks: ../checks/article.yaml}]}",
    ),
  });
  try {
    for (const command of ["run", "validate"]) {
      const r = await runCli([command, "flows", "--setup", "common/setup.yaml"], { cwd: dir });
      const out = r.stdout + r.stderr;
      assert.equal(r.code, 2, out);
      assert.equal(out.match(/error\[/g)?.length, 1, out);
      assert.match(
        out,
        /checks\/article\.yaml:2:19 error\[unknown-key\]: Unknown key "tpye" in a check in the check file checks\/article\.yaml\./,
      );
      assert.match(out, /hint: Did you mean "type"\?/);
    }
    assert.equal(requests(), 0);
  } finally {
    await server.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a check file reads the vars and captures of the flow that uses it", async () => {
  const { server, base } = articles();
  const dir = await tree({
    "checks/author.yaml": '- {path: $.username, equals: "${vars.user}", name: username}\n',
    "flows/ok.yaml":
      `name: ok\nvars: {user: jake}\nsteps:\n  - name: get\n    request: {url: "${base}/profile"}\n    assert: {json: [{at: $.json.profile, checks: ../checks/author.yaml}]}\n`,
    "flows/wrong.yaml":
      `name: wrong\nvars: {user: someone}\nsteps:\n  - name: get\n    request: {url: "${base}/profile"}\n    assert: {json: [{at: $.json.profile, checks: ../checks/author.yaml}]}\n`,
    "flows/none.yaml":
      `name: none\nvars: {usr: jake}\nsteps:\n  - name: get\n    request: {url: "${base}/profile"}\n    assert: {json: [{at: $.json.profile, checks: ../checks/author.yaml}]}\n`,
  });
  try {
    const bad = await runCli(["validate", "flows"], { cwd: dir });
    assert.equal(bad.code, 2, bad.stdout + bad.stderr);
    assert.match(bad.stdout, /checks\/author\.yaml:1:\d+ error\[unknown-var\]/);
    assert.match(bad.stdout, /1 problem in 1 file/);
    await Deno.remove(`${dir}/flows/none.yaml`);
    const r = await runCli(["run", "flows"], { cwd: dir });
    assert.equal(r.code, 1, r.stdout + r.stderr);
    assert.match(
      r.stdout,
      /author › username: \$\.json\.profile › \$\.username: expected "someone", got "jake"/,
    );
    assert.match(r.stdout, /✔ flows\/ok\.yaml · ok /);
  } finally {
    await server.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});

/** A flow whose one step's `json` list uses the check file `path` under `at`. */
const using = (name: string, path: string) =>
  flow(name, "http://127.0.0.1:9/x", `{json: [{at: $.json.a, checks: ${path}}]}`);

Deno.test("each mistake with a check file is one problem at the place to fix", async () => {
  const chain = Object.fromEntries(
    Array.from({ length: 10 }, (_, i) => [`checks/d${i + 1}.yaml`, `- {checks: d${i + 2}.yaml}\n`]),
  );
  const dir = await tree({
    "checks/profile.yaml": "- {path: $.username, type: string}\n",
    "checks/map.yaml": "path: $.title\ntype: string\n",
    "checks/c1.yaml": "- {path: $.a, exists: true}\n- {checks: c2.yaml}\n",
    "checks/c2.yaml": "- {checks: c1.yaml}\n",
    "checks/bomb.yaml": "- &a [{path: $.a, exists: true}]\n" +
      Array.from(
        { length: 20 },
        (_, i) =>
          `- &${"b".repeat(i + 1)} [*${i === 0 ? "a" : "b".repeat(i)}, *${
            i === 0 ? "a" : "b".repeat(i)
          }]\n`,
      ).join(""),
    "checks/deep.yaml": `- ${"[".repeat(300)}${"]".repeat(300)}\n`,
    "checks/syntax.yaml": "- {path: $.a, exists: true\n",
    ...chain,
    "flows/missing.yaml": using("missing", "../checks/profile.yml"),
    "flows/dir.yaml": using("dir", "../checks"),
    "flows/fifo.yaml": using("fifo", "../checks/fifo"),
    "flows/fifo_again.yaml": using("fifo again", "../checks/fifo"),
    "flows/map.yaml": using("map", "../checks/map.yaml"),
    "flows/cycle.yaml": using("cycle", "../checks/c1.yaml"),
    "flows/cycle_other_way.yaml": using("cycle other way", "../checks/c2.yaml"),
    "flows/deep_chain.yaml": using("deep chain", "../checks/d1.yaml"),
    "flows/bomb.yaml": using("bomb", "../checks/bomb.yaml"),
    "flows/deep.yaml": using("deep", "../checks/deep.yaml"),
    "flows/syntax.yaml": using("syntax", "../checks/syntax.yaml"),
    "flows/syntax_again.yaml": using("syntax again", "../checks/syntax.yaml"),
  });
  try {
    await Deno.writeTextFile(`${dir}/checks/big.yaml`, "#".repeat(10 * 1024 * 1024 + 1));
    await Deno.writeTextFile(`${dir}/flows/big.yaml`, using("big", "../checks/big.yaml"));
    const made = await new Deno.Command("mkfifo", { args: [`${dir}/checks/fifo`] }).output();
    assert.equal(made.code, 0, "mkfifo works here");
    const r = await runCli(["validate", "flows"], { cwd: dir });
    const out = r.stdout + r.stderr;
    assert.equal(r.code, 2, out);
    const problems = [...out.matchAll(/^(\S+:\d+:\d+) error\[([a-z-]+)\]/gm)].map((m) =>
      `${m[1]} ${m[2]}`
    );
    // Two flows using the same FIFO, the same broken file, or the cycle from either end: still one.
    assert.deepEqual(problems.sort(), [
      "checks/bomb.yaml:14:19 yaml-too-large",
      "checks/c2.yaml:1:12 check-file-cycle",
      "checks/d8.yaml:1:12 check-file-too-deep",
      "checks/deep.yaml:1:258 yaml-too-deep",
      "checks/map.yaml:1:1 wrong-type",
      "checks/syntax.yaml:2:1 yaml-syntax",
      "flows/big.yaml:5:44 file-too-large",
      "flows/dir.yaml:5:44 not-a-regular-file",
      "flows/fifo.yaml:5:44 not-a-regular-file",
      "flows/missing.yaml:5:44 file-read",
    ]);
    assert.match(out, /hint: Did you mean "\.\.\/checks\/profile\.yaml"\?/);
    assert.match(
      out,
      /check-file-cycle\]: Using "c1\.yaml" makes a cycle of check files: checks\/c1\.yaml → checks\/c2\.yaml → checks\/c1\.yaml\./,
    );
    assert.match(out, /nests check files 9 levels deep, past the limit of 8/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("with --cache-dir, a changed check file is read again, not served from the cache", async () => {
  const { server, base } = articles();
  const dir = await tree({
    "checks/article.yaml": "- {path: $.title, type: string, name: title}\n",
    "flows/a.yaml": flow(
      "a",
      `${base}/articles/good`,
      "{json: [{at: $.json.article, checks: ../checks/article.yaml}]}",
    ),
  });
  try {
    const args = ["run", "flows", "--cache-dir", "cache"];
    assert.equal((await runCli(args, { cwd: dir })).code, 0);
    await Deno.writeTextFile(
      `${dir}/checks/article.yaml`,
      "- {path: $.title, type: number, name: title}\n",
    );
    const r = await runCli(args, { cwd: dir });
    assert.equal(r.code, 1, r.stdout + r.stderr);
    assert.match(r.stdout, /article › title: .*expected type number, got string "Welcome"/);
  } finally {
    await server.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a check file run as a flow (a folder that holds both) is one problem that says so", async () => {
  const dir = await tree({
    "suite/checks/list.yaml": "- {path: $.title, type: string}\n",
    "suite/checks/map.yaml": "x-a: &a {type: string}\nchecks:\n  - {path: $.title, <<: *a}\n",
  });
  try {
    const r = await runCli(["validate", "suite"], { cwd: dir });
    assert.equal(r.code, 2, r.stdout + r.stderr);
    const problems = [...r.stdout.matchAll(/^(\S+:\d+:\d+) error\[([a-z-]+)\]: (.*)$/gm)];
    assert.deepEqual(problems.map((m) => `${m[1]} ${m[2]}`), [
      "suite/checks/list.yaml:1:1 wrong-type",
      "suite/checks/map.yaml:1:1 wrong-type",
    ]);
    assert.match(problems[0][3], /^This is a check file \(a list of checks\), not a flow/);
    assert.match(r.stdout, /hint: Keep check files out of the folders of flows you run/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
