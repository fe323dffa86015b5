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
