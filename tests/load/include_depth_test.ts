/**
 * Include chains are a checked limit: a chain deeper than MAX_INCLUDE_DEPTH
 * is one positioned problem at the include that goes too deep, naming the
 * chain, in `validate` and `run` alike, however the files are ordered: never
 * a stack overflow.
 */
import assert from "node:assert/strict";
import { MAX_INCLUDE_DEPTH } from "../../lib/model/limits.ts";
import { runCli } from "../support/cli.ts";

/** Files f0 … f<n> (named by `name`), each including the next; the last sends a request. */
async function chain(dir: string, n: number, name = (i: number) => `f${i}`): Promise<void> {
  for (let i = 0; i <= n; i++) {
    const step = i < n
      ? `  - name: s\n    include: ${name(i + 1)}.yaml\n`
      : `  - name: s\n    request: {url: "http://127.0.0.1:9/"}\n`;
    await Deno.writeTextFile(`${dir}/${name(i)}.yaml`, `name: ${name(i)}\nsteps:\n${step}`);
  }
}

async function inTemp(f: (dir: string) => Promise<void>): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-include-depth-" });
  try {
    await f(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("an include chain 1,000 deep is one positioned include-too-deep problem (validate, run)", async () => {
  await inTemp(async (dir) => {
    await chain(dir, 1000);
    for (const command of ["validate", "run"]) {
      const result = await runCli([
        command,
        `${dir}/f0.yaml`,
        ...command === "run" ? [] : ["--no-env"],
      ]);
      const output = result.stdout + result.stderr;
      assert.equal(result.code, 2, `${command}: exit ${result.code}\n${output.slice(0, 3000)}`);
      assert.doesNotMatch(output, /internal error|^\s+at /m);
      const deep = `f${MAX_INCLUDE_DEPTH}.yaml`;
      // At the include of the file one level too deep, in the file that includes it.
      assert.match(
        output,
        new RegExp(
          `f${MAX_INCLUDE_DEPTH}\\.yaml:4:14 error\\[include-too-deep\\]: Including "f${
            MAX_INCLUDE_DEPTH + 1
          }\\.yaml" nests includes ${MAX_INCLUDE_DEPTH + 1} levels deep`,
        ),
        output.slice(0, 3000),
      );
      assert.match(output, /f0\.yaml → \S*f1\.yaml → /, "the chain is named");
      assert.ok(output.includes(deep));
      assert.equal(output.match(/error\[include-too-deep\]/g)?.length, 1);
      assert.ok(output.length < 20_000, `${output.length} characters`);
    }
  });
});

Deno.test("a chain at the limit loads; one more level is refused even when its files load first", async () => {
  await inTemp(async (dir) => {
    await chain(dir, MAX_INCLUDE_DEPTH);
    const ok = await runCli(["validate", `${dir}/f0.yaml`, "--no-env"]);
    assert.equal(ok.code, 0, ok.stdout + ok.stderr);
    // Every file of the chain is a flow of the set, named so that the innermost loads first
    // (in sorted order): each load reads only loaded files, so the depth must be carried.
    const name = (i: number) => `c${String(100 - i).padStart(3, "0")}`;
    await chain(dir, MAX_INCLUDE_DEPTH + 1, name);
    const result = await runCli(["validate", dir, "--no-env"]);
    const output = result.stdout + result.stderr;
    assert.equal(result.code, 2, output.slice(0, 3000));
    assert.match(output, /c100\.yaml:4:14 error\[include-too-deep\]: Including "c099\.yaml"/);
    assert.equal(output.match(/error\[include-too-deep\]/g)?.length, 1, output.slice(0, 3000));
    assert.doesNotMatch(output, /internal error|^\s+at /m);
  });
});
