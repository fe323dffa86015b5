/**
 * Every documented way to start flowrun from source carries the runner's V8
 * flags (scripts/permissions.ts): V8 reads them only when the process starts
 * (`node:v8`'s `setFlagsFromString` changes nothing once it runs), and
 * without them a suite of 2,000 flows takes about 220 MiB instead of 130.
 * The commands are read from the README, docs/*.md and the CI examples,
 * shell line continuations joined; `deno task flowrun` carries the flags in
 * deno.json (tests/cli/compile_test.ts), the binaries in their build.
 */
import assert from "node:assert/strict";
import { RUNNER_V8_FLAGS } from "../../scripts/permissions.ts";
import { root } from "../support/cli.ts";

/** The documents people copy commands from. */
async function documents(): Promise<Map<string, string>> {
  const texts = new Map<string, string>();
  texts.set("README.md", await Deno.readTextFile(`${root}README.md`));
  for (const dir of ["docs", "docs/ci"]) {
    for await (const entry of Deno.readDir(`${root}${dir}`)) {
      if (!entry.isFile || !/\.(md|ya?ml)$/.test(entry.name)) continue;
      // The log keeps what was measured, flags tried and dropped included: not instructions.
      if (entry.name === "performance-log.md") continue;
      texts.set(`${dir}/${entry.name}`, await Deno.readTextFile(`${root}${dir}/${entry.name}`));
    }
  }
  return texts;
}

/**
 * The commands in `text` that start flowrun's cli.ts with a Deno: `deno run`
 * and a global `deno install` (not `deno install --entrypoint`, which only
 * caches), by `deno` or by a Deno's path in a variable.
 */
export function startCommands(text: string): string[] {
  const joined = text.replace(/\\\n\s*/g, " ");
  const commands = joined.matchAll(
    /(?:\bdeno|"?\$DENO"?)\s+(run|install)\b[^`\n]*?cli\.ts\b/g,
  );
  return [...commands]
    .map((m) => m[0].replace(/\s+/g, " "))
    .filter((command) => !command.includes("--entrypoint"));
}

Deno.test("every documented command that starts cli.ts carries the runner's V8 flags", async () => {
  const found: string[] = [];
  for (const [name, text] of await documents()) {
    for (const command of startCommands(text)) {
      found.push(`${name}: ${command}`);
      assert.ok(
        command.includes(RUNNER_V8_FLAGS[0]),
        `${name} starts flowrun without ${RUNNER_V8_FLAGS[0]}:\n${command}`,
      );
    }
  }
  // deno install in versioning.md (twice), its npm launcher, docs/cli.md's deno run.
  assert.ok(found.length >= 4, `too few commands found, the scan is broken:\n${found.join("\n")}`);
});

Deno.test("the scan finds a command without the flags, across a line continuation", () => {
  const text = "```sh\ndeno install -g -n flowrun \\\n  --allow-net cli.ts\n```\n" +
    "Or `deno run -A cli.ts run flows/`; `deno install --entrypoint cli.ts` only caches.";
  const commands = startCommands(text);
  assert.deepEqual(commands, [
    "deno install -g -n flowrun --allow-net cli.ts",
    "deno run -A cli.ts",
  ]);
  assert.ok(commands.every((command) => !command.includes(RUNNER_V8_FLAGS[0])));
});
