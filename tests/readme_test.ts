/**
 * Keeps the README true: the Deno version it tells people to install is the
 * pinned one, and every option and exit code the CLI has is documented.
 */
import assert from "node:assert/strict";
import { root, runCli } from "./support/cli.ts";

const readme = await Deno.readTextFile(`${root}README.md`);
const pinned = (await Deno.readTextFile(`${root}.deno-version`)).trim();

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
});

Deno.test("every CLI option and exit code is documented in the README", async () => {
  const help = (await runCli(["--help"])).stdout;
  const options = [...help.matchAll(/^ {2}(--[a-z-]+)/gm)].map((m) => m[1]);
  assert.ok(options.length >= 7);
  for (const option of options) assert.ok(readme.includes(option), `README mentions ${option}`);
  for (const code of [0, 1, 2, 3]) {
    assert.match(readme, new RegExp(`\\| ${code} +\\| `), `exit code ${code}`);
  }
});

Deno.test("docs/cli.md shows the current --help text", async () => {
  const help = (await runCli(["--help"])).stdout;
  const doc = await Deno.readTextFile(`${root}docs/cli.md`);
  assert.ok(doc.includes("```\n" + help + "```\n"), "regenerate the block from `flowrun --help`");
});
