/**
 * The `reproduce:` line of a failed setup or teardown flow names that file
 * once, as the option it was given with (`--setup`, `--teardown`), not a
 * second time as a flow path; run as printed, it fails the same way.
 */
import assert from "node:assert/strict";
import { type CliRun, runCli } from "../support/cli.ts";
import { reproduceLines, rerunsAlike } from "../support/reproduce.ts";

/** A server that answers `/status/NNN` with that status and counts teardown calls. */
function server() {
  let teardowns = 0;
  const srv = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    const url = new URL(req.url);
    if (url.pathname.startsWith("/teardown")) teardowns++;
    const status = url.pathname.match(/\/status\/(\d{3})$/);
    return new Response("body", { status: status ? Number(status[1]) : 200 });
  });
  return {
    base: `http://127.0.0.1:${srv.addr.port}`,
    teardowns: () => teardowns,
    close: () => srv.shutdown(),
  };
}

/** A one-step flow that gets `path` and expects 200. */
function flow(name: string, url: string, extra = ""): string {
  return `name: ${name}\nsteps:\n  - name: call\n    request: {url: "${url}"}\n` +
    `    assert: {status: 200}\n${extra}`;
}

/** How often `word` occurs in `line` as a whole shell word. */
function count(line: string, word: string): number {
  return line.split(" ").filter((w) => w === word).length;
}

/**
 * Runs `args` in a directory of `files`, takes the reproduce line of the
 * failed `file`, checks it names that file once, runs it and compares.
 */
async function reproduces(
  files: Record<string, string>,
  args: string[],
  file: string,
): Promise<{ first: CliRun; again: CliRun; line: string }> {
  const rerun = await rerunsAlike({ files, args, file, pick: (l) => l.includes(` ${file}`) });
  const { first, again, line } = rerun;
  assert.equal(count(line, file), 1, `${file} once in: ${line}`);
  assert.deepEqual(
    reproduceLines(again),
    reproduceLines(first),
    "the rerun prints the same lines",
  );
  return rerun;
}

Deno.test("reproduce: a failed setup flow's line names it once, by --setup, and fails the same way", async () => {
  const srv = server();
  try {
    const { line, again } = await reproduces(
      {
        "setup.yaml": flow("setup", `${srv.base}/status/500`, 'outputs: {code: "200"}\n'),
        "down.yaml": flow("down", `${srv.base}/teardown`),
        "flow.yaml": flow("f", `${srv.base}/status/\${setup.code}`),
      },
      ["flow.yaml", "--setup", "setup.yaml", "--teardown", "down.yaml"],
      "setup.yaml",
    );
    assert.match(line, / run --run-id \S+ --setup setup\.yaml --teardown down\.yaml$/);
    // The rerun is the setup and its teardown: the flows that read the setup are not in it.
    assert.match(again.stdout, /· 2 flows\n/);
    assert.equal(srv.teardowns(), 2, "the teardown ran in both runs");
  } finally {
    await srv.close();
  }
});

Deno.test("reproduce: the second of two setup flows keeps the first, whose outputs it reads", async () => {
  const srv = server();
  try {
    const { line } = await reproduces(
      {
        "one.yaml": flow("one", `${srv.base}/status/200`, 'outputs: {code: "404"}\n'),
        "two.yaml": flow("two", `${srv.base}/status/\${setup.code}`, 'outputs: {x: "1"}\n'),
        "flow.yaml": flow("f", `${srv.base}/status/200?x=\${setup.x}`),
      },
      ["flow.yaml", "--setup", "one.yaml", "--setup", "two.yaml"],
      "two.yaml",
    );
    assert.match(line, / run --run-id \S+ --setup one\.yaml --setup two\.yaml$/);
  } finally {
    await srv.close();
  }
});

Deno.test("reproduce: a failed teardown flow's line names it once, by --teardown, with its setup", async () => {
  const srv = server();
  try {
    const { line } = await reproduces(
      {
        "setup.yaml": flow("setup", `${srv.base}/status/200`, 'outputs: {code: "503"}\n'),
        "down.yaml": flow("down", `${srv.base}/teardown/status/\${setup.code}`),
        "flow.yaml": flow("f", `${srv.base}/status/200`),
      },
      ["flow.yaml", "--setup", "setup.yaml", "--teardown", "down.yaml"],
      "down.yaml",
    );
    assert.match(line, / run --run-id \S+ --setup setup\.yaml --teardown down\.yaml$/);
    assert.equal(srv.teardowns(), 2);
  } finally {
    await srv.close();
  }
});

Deno.test("run and validate take --setup or --teardown without a path; with neither, a path is needed", async () => {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-setup-only-" });
  try {
    await Deno.writeTextFile(
      `${dir}/setup.yaml`,
      'name: setup\nsteps:\n  - name: s\n    request: {url: "http://x.test/${vars.nope}"}\n',
    );
    for (const command of ["validate", "run"]) {
      const only = await runCli([command, "--setup", "setup.yaml"], { cwd: dir });
      assert.equal(only.code, 2, only.stdout + only.stderr);
      assert.match(only.stdout + only.stderr, /setup\.yaml:4:\d+ error\[unknown-var\]/);
      const none = await runCli(command === "run" ? ["run", "--jobs", "2"] : ["validate"], {
        cwd: dir,
      });
      assert.equal(none.code, 2);
      assert.match(none.stderr, /error\[no-paths\]/);
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
