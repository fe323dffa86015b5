/**
 * `validate` gives `run`'s verdict before sending: for a corpus of flows and
 * every option that changes what is loaded, `validate` and `run` (against
 * a closed port, so nothing after loading matters) find the same problems
 * with exit 2, or the same usage error, and `validate` says "no problems"
 * exactly when `run` gets past loading.
 */
import assert from "node:assert/strict";
import { type CliRun, runCli } from "../support/cli.ts";

/** Every request goes to a port nothing listens on: a run that loads fails with exit 1. */
const CLOSED = "http://127.0.0.1:9";

function flow(name: string, url: string, extra = ""): string {
  return `name: ${name}\n${extra}steps:\n  - name: get\n    request: {url: "${url}"}\n`;
}

/** Flows that read the setup, the environment and a run parameter, and a tagged one. */
const CORPUS: Record<string, string> = {
  "flows/a_setup.yaml": flow("reads setup", `${CLOSED}/\${setup.token}`),
  "flows/b_env.yaml": flow("reads env", `${CLOSED}/\${ENV.FLOWRUN_VO_PART}`),
  "flows/c_param.yaml": flow("reads param", `${CLOSED}/\${code}`),
  "flows/d_smoke.yaml": flow("smoke", `${CLOSED}/plain`, "tags: [smoke]\n"),
  "setup.yaml": `${flow("setup", `${CLOSED}/login`)}outputs: {token: t}\n`,
  "other_setup.yaml": `${flow("setup", `${CLOSED}/login`)}outputs: {other: t}\n`,
  "broken_setup.yaml": `name: broken\nsteps:\n  - name: get\n    requst: {url: "${CLOSED}"}\n`,
  "teardown.yaml": flow("teardown", `${CLOSED}/\${setup.token}`),
  ".env": "FLOWRUN_VO_PART=from-env-file\n",
  "vars.yaml": "code: 200\n",
  "report.json": "{}\n",
};

/** What one command gave: its exit code and its problems (or its usage error). */
interface Verdict {
  code: number;
  problems: unknown;
}

/** `run`'s verdict: the problems its JSON report lists, or its usage error on stderr. */
async function runVerdict(dir: string, args: string[]): Promise<Verdict> {
  const result = await runCli(["run", ...args, "--report-json", "out.json"], { cwd: dir });
  assert.notEqual(result.code, 0, "every flow sends to a closed port");
  if (result.code !== 2) return { code: result.code, problems: [] };
  const problems = await Deno.readTextFile(`${dir}/out.json`).then(
    (text) => JSON.parse(text).problems,
    () => usage(result),
  );
  return { code: 2, problems };
}

/** A usage error as printed (stderr), when no report was written. */
function usage(result: CliRun): string {
  return result.stderr.trim();
}

/** `validate`'s verdict: its JSON problems, or its usage error. */
async function validateVerdict(dir: string, args: string[]): Promise<Verdict> {
  const result = await runCli(["validate", ...args, "--format", "json"], { cwd: dir });
  if (result.code === 0) return { code: 0, problems: JSON.parse(result.stdout) };
  assert.equal(result.code, 2, result.stdout + result.stderr);
  return { code: 2, problems: result.stdout ? JSON.parse(result.stdout) : usage(result) };
}

/** Writes the corpus into `dir`. */
async function writeCorpus(dir: string): Promise<void> {
  await Deno.mkdir(`${dir}/flows`, { recursive: true });
  for (const [name, text] of Object.entries(CORPUS)) {
    await Deno.writeTextFile(`${dir}/${name}`, text);
  }
}

/** Compares the two verdicts for each option set, four commands at a time. */
async function agree(paths: string[], optionSets: string[][]): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-validate-options-" });
  try {
    for (let i = 0; i < optionSets.length; i += 2) {
      await Promise.all(
        optionSets.slice(i, i + 2).map(async (options) => {
          const args = [...paths, ...options];
          // Each its own report file: the runs of one batch share the directory.
          const sub = await Deno.makeTempDir({ dir, prefix: "run-" });
          await writeCorpus(sub);
          const [validated, ran] = await Promise.all([
            validateVerdict(sub, args),
            runVerdict(sub, args),
          ]);
          const label = `flowrun validate|run ${args.join(" ")}`;
          if (validated.code === 0) {
            assert.equal(
              ran.code,
              1,
              `${label}: validate found no problems, so run gets past loading`,
            );
            assert.deepEqual(validated.problems, []);
          } else {
            assert.equal(
              ran.code,
              2,
              `${label}: validate found problems, so run stops before sending`,
            );
            assert.deepEqual(validated.problems, ran.problems, label);
          }
        }),
      );
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

const SETUP_AND_VARS = [
  [],
  ["--setup", "setup.yaml"],
  ["--setup", "other_setup.yaml"],
  ["--setup", "broken_setup.yaml"],
  ["--setup", "setup.yaml", "--teardown", "teardown.yaml"],
  ["--teardown", "teardown.yaml"],
  ["--env-file", ".env"],
  ["--vars-file", "vars.yaml"],
  ["--var", "code=404"],
  ["--setup", "setup.yaml", "--env-file", ".env", "--var", "code=1"],
  ["--setup", "setup.yaml", "--env-file", ".env", "--vars-file", "vars.yaml"],
];

const SELECTION = [
  ["--tag", "smoke"],
  ["--tag", "nothing"],
  ["--tag", "smoke and"],
  ["--filter", "smoke"],
  ["--filter", "zzz"],
  ["--filter", "a_setup", "--setup", "setup.yaml"],
  ["--shard", "1/2"],
  ["--shard", "2/2", "--env-file", ".env"],
  ["--shard", "3/2"],
  ["--shard-timings", "report.json"],
  ["--shard", "1/2", "--shard-timings", "report.json"],
];

const BAD_INPUTS = [
  ["--vars-file", "missing.yaml"],
  ["--env-file", "missing.env"],
  ["--setup", "missing.yaml"],
  ["--secret", "FLOWRUN_VO_UNSET"],
  ["--secret", "code", "--var", "code=1", "--setup", "setup.yaml"],
  ["--var", "bad name=1"],
];

Deno.test("validate and run agree: setup, teardown, env files, vars files and --var", async () => {
  await agree(["flows"], SETUP_AND_VARS);
});

Deno.test("validate and run agree: tags, filters and shards", async () => {
  await agree(["flows"], SELECTION);
});

Deno.test("validate and run agree: inputs that cannot be used are the same usage errors", async () => {
  await agree(["flows"], BAD_INPUTS);
});

Deno.test("validate and run agree on one file, and validate says so in words", async () => {
  await agree(["flows/a_setup.yaml", "flows/d_smoke.yaml"], [[], ["--setup", "setup.yaml"]]);
  const dir = await Deno.makeTempDir({ prefix: "flowrun-validate-options-" });
  try {
    await writeCorpus(dir);
    const setup = ["--setup", "setup.yaml", "--env-file", ".env", "--var", "code=1"];
    const ok = await runCli(["validate", "flows", ...setup], { cwd: dir });
    assert.equal(ok.code, 0, ok.stdout + ok.stderr);
    assert.match(ok.stdout, /5 flow files checked: no problems\./);
    const bad = await runCli(["validate", "flows/a_setup.yaml"], { cwd: dir });
    assert.equal(bad.code, 2);
    assert.match(bad.stdout, /error\[unknown-output\]/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
