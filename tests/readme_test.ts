/**
 * Keeps the README true as the front door: the Deno version it tells people
 * to install is the pinned one, its first flow, its own-folder command and
 * its CI job run as written against the demo API, its library command writes
 * the API reference, and the benchmarks find the blocks they rewrite. The
 * option reference lives in docs/cli.md: every CLI option is described in its
 * prose, not only in the verbatim --help block.
 */
import assert from "node:assert/strict";
import { parse } from "yaml";
import { startDemoApi } from "../examples/demo_api.ts";
import { root, runCli } from "./support/cli.ts";

const readme = await Deno.readTextFile(`${root}README.md`);
const pinned = (await Deno.readTextFile(`${root}.deno-version`)).trim();

/** The fenced blocks of `markdown` in `language`, in order. */
function fenced(markdown: string, language: string): string[] {
  return [...markdown.matchAll(/^```(\S*)\n([^]*?)^```$/gm)]
    .filter((m) => m[1] === language).map((m) => m[2]);
}

/** The text of the README section under `## heading`, up to the next `## `. */
function section(heading: string): string {
  const start = readme.indexOf(`\n## ${heading}\n`);
  assert.ok(start >= 0, `the README has a "## ${heading}" section`);
  const end = readme.indexOf("\n## ", start + 1);
  return readme.slice(start, end === -1 ? undefined : end);
}

Deno.test("the README installs the Deno version pinned in .deno-version", () => {
  const versions = [...readme.matchAll(/deno@(\d+\.\d+\.\d+)/g)].map((m) => m[1]);
  assert.ok(versions.length >= 2, "the quick start names the Deno version");
  assert.deepEqual([...new Set(versions)], [pinned]);
});

Deno.test("CI installs Deno from .deno-version and runs the README's test command", async () => {
  const ci = await Deno.readTextFile(`${root}.ci/run`);
  assert.match(ci, /\.deno-version/);
  assert.match(readme, /npx --yes deno@[\d.]+ task test/);
  assert.match(ci, /\ndeno task test /);
  // The quick start stays two commands: the demo, then the tests.
  const quick = fenced(section("Quick start"), "sh");
  assert.equal(quick.length, 1);
  assert.deepEqual(
    quick[0].trim().split("\n").map((line) => line.replace(/\s+#.*$/, "")),
    [`npx --yes deno@${pinned} task demo`, `npx --yes deno@${pinned} task test`],
  );
});

Deno.test("every CLI option is described in docs/cli.md's prose and every exit code in the README", async () => {
  const help = (await runCli(["--help"])).stdout;
  const options = [...help.matchAll(/^ {2}(--[a-z-]+)/gm)].map((m) => m[1]);
  assert.ok(options.length >= 7);
  // The verbatim --help block (and any other fenced block) would make this trivial.
  const cli = (await Deno.readTextFile(`${root}docs/cli.md`)).replace(/^(`{3,})[^]*?^\1/gm, "");
  for (const option of options) {
    assert.ok(cli.includes(option), `docs/cli.md describes ${option} outside its --help block`);
  }
  for (const code of [0, 1, 2, 3, 4]) {
    assert.match(readme, new RegExp(`\\| ${code} +\\| `), `exit code ${code}`);
  }
});

Deno.test("docs/cli.md shows the current --help text", async () => {
  const help = (await runCli(["--help"])).stdout;
  const doc = await Deno.readTextFile(`${root}docs/cli.md`);
  assert.ok(doc.includes("```\n" + help + "```\n"), "regenerate the block from `flowrun --help`");
});

/** The shell command of the README's CI job step "Run the flows", for `flowrun` at `checkout`. */
function ciCommand(checkout: string): string {
  const jobs = fenced(section("CI in one example"), "yaml").map((text) => parse(text));
  assert.equal(jobs.length, 1, "one GitHub Actions workflow");
  const steps: { name?: string; run?: string }[] = Object.values(
    jobs[0].jobs as Record<string, { steps: { name?: string; run?: string }[] }>,
  )[0].steps;
  const run = steps.find((step) => step.name === "Run the flows")?.run;
  assert.ok(
    run !== undefined && run.includes("--config .flowrun/deno.json"),
    "the pinned checkout",
  );
  return run.replaceAll(".flowrun/deno.json", `${checkout}deno.json`);
}

Deno.test("the README's first flow, run from a folder of its own as its CI job runs it: green, then red", async () => {
  const flow = fenced(section("A first flow"), "yaml");
  assert.equal(flow.length, 1, "one flow");
  const dir = await Deno.makeTempDir();
  const api = await startDemoApi();
  try {
    await Deno.mkdir(`${dir}/flows`);
    await Deno.writeTextFile(`${dir}/flows/items.yaml`, flow[0]);
    const path = `${Deno.execPath().replace(/\/[^/]*$/, "")}:${Deno.env.get("PATH") ?? ""}`;
    const run = (password: string) =>
      new Deno.Command("sh", {
        args: ["-c", ciCommand(root)],
        cwd: dir,
        env: { PATH: path, NO_COLOR: "1", BASE_URL: api.url, DEMO_PASSWORD: password },
        stdin: "null",
      }).output();
    const green = await run("demo-password");
    const out = new TextDecoder().decode(green.stdout);
    assert.equal(green.code, 0, out + new TextDecoder().decode(green.stderr));
    assert.match(out, /1 flow: 1 passed/);
    assert.ok(!out.includes("demo-password"), "the password is masked");
    const report = JSON.parse(await Deno.readTextFile(`${dir}/reports/report.json`));
    assert.deepEqual(report.flows[0].steps.map((s: { status: string }) => s.status), [
      "passed",
      "passed",
      "passed",
    ]);
    const red = await run("not-the-password");
    assert.equal(red.code, 1, "a failed login fails the job");
    const junit = await Deno.readTextFile(`${dir}/reports/junit.xml`);
    assert.match(junit, /<failure/);
  } finally {
    await api.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("the README's deno doc command writes the library's reference", async () => {
  const command = /`(deno doc --html [^`]*mod\.ts)`/.exec(section("Library"))?.[1];
  assert.ok(command, "the Library section gives the deno doc command");
  const dir = await Deno.makeTempDir();
  try {
    const args = command.split(" ").slice(1).map((arg) =>
      arg.startsWith("--output=") ? `--output=${dir}/api` : arg
    );
    assert.ok(args.includes(`--output=${dir}/api`), "the command names its output folder");
    const doc = await new Deno.Command(Deno.execPath(), { args, cwd: root, stdin: "null" })
      .output();
    assert.equal(doc.code, 0, new TextDecoder().decode(doc.stderr));
    const symbols = await Deno.readTextFile(`${dir}/api/all_symbols.html`);
    for (const name of ["runFlows", "loadFlows", "toJUnitXml"]) {
      assert.ok(symbols.includes(name), `the reference lists ${name}`);
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("every block the benchmarks rewrite is in the README or docs/performance-log.md, once", async () => {
  const log = await Deno.readTextFile(`${root}docs/performance-log.md`);
  const names = (text: string, edge: string) =>
    [...text.matchAll(new RegExp(`<!-- bench:(.+?):${edge}\\b`, "g"))].map((m) => m[1]);
  const starts = [...names(readme, "start"), ...names(log, "start")];
  assert.deepEqual(starts.toSorted(), [...names(readme, "end"), ...names(log, "end")].toSorted());
  assert.equal(new Set(starts).size, starts.length, "no block twice");
  assert.deepEqual(names(readme, "start"), ["200 flows"], "the README's performance table");
  // What bench/run.ts, scale.ts, workers.ts and profile.ts write with --readme.
  for (const name of ["20 flows", "scale 2000", "scale 10000", "workers", "profile"]) {
    assert.ok(starts.includes(name), `the block "${name}" exists`);
  }
});

Deno.test("the README and the docs index link every page in docs/", async () => {
  const index = await Deno.readTextFile(`${root}docs/README.md`);
  for await (const entry of Deno.readDir(`${root}docs`)) {
    if (!entry.isFile || !entry.name.endsWith(".md") || entry.name === "README.md") continue;
    assert.ok(readme.includes(`](docs/${entry.name})`), `the README links docs/${entry.name}`);
    assert.ok(index.includes(`](${entry.name})`), `docs/README.md links ${entry.name}`);
  }
});
