import assert from "node:assert/strict";
import type { OptionSpec } from "../../cli/args.ts";
import { CONVERT_OPTIONS } from "../../cli/convert.ts";
import { EXPORT_OPTIONS } from "../../cli/export.ts";
import { HELP } from "../../cli/help.ts";
import { MERGE_OPTIONS } from "../../cli/merge.ts";
import { REPORT_OPTIONS } from "../../cli/report.ts";
import { RUN_OPTIONS } from "../../cli/run/options.ts";
import { SEND_OPTIONS } from "../../cli/send.ts";
import { SUBCOMMANDS } from "../../cli/subcommands.ts";
import { VALIDATE_OPTIONS } from "../../cli/validate.ts";
import { VERSION } from "../../lib/model/version.ts";
import { runCli } from "../support/cli.ts";

Deno.test("--help names the version, every command and every run option", () => {
  assert.ok(HELP.startsWith(`flowrun ${VERSION} — `), HELP.slice(0, 80));
  for (const command of ["run", "validate", "merge", "report", "convert", "send", "help"]) {
    assert.match(HELP, new RegExp(`flowrun ${command}\\b`), command);
  }
  for (const option of Object.keys(RUN_OPTIONS)) {
    assert.ok(HELP.includes(`--${option}`), `--${option} is in the help`);
  }
});

/**
 * Each subcommand: the parser table it reads its arguments with, its usage
 * line, and every way of asking for its help.
 */
const COMMANDS: Record<string, { options: OptionSpec; usage: string; asks: string[][] }> = {
  run: {
    options: RUN_OPTIONS,
    usage: "Usage: flowrun run <path>...",
    asks: [["run", "--help"], ["run", "flows/", "-h"], ["help", "run"]],
  },
  validate: {
    options: VALIDATE_OPTIONS,
    usage: "Usage: flowrun validate <path>...",
    asks: [["validate", "--help"], ["validate", "-h"], ["help", "validate"]],
  },
  merge: {
    options: MERGE_OPTIONS,
    usage: "Usage: flowrun merge <report.json>...",
    asks: [["merge", "--help"], ["merge", "-h"], ["help", "merge"]],
  },
  report: {
    options: REPORT_OPTIONS,
    usage: "Usage: flowrun report html <report.json>...",
    asks: [["report", "--help"], ["report", "html", "--help"], ["report", "-h"], [
      "help",
      "report",
    ]],
  },
  convert: {
    options: CONVERT_OPTIONS,
    usage: "Usage: flowrun convert har <file.har>",
    asks: [["convert", "--help"], ["convert", "har", "--help"], ["convert", "har", "-h"], [
      "help",
      "convert",
    ]],
  },
  send: {
    options: SEND_OPTIONS,
    usage: "Usage: flowrun send [METHOD] URL",
    asks: [["send", "--help"], ["send", "http://x.test/", "-h"], ["help", "send"]],
  },
  export: {
    options: EXPORT_OPTIONS,
    usage: "Usage: flowrun export artillery <path>...",
    asks: [["export", "--help"], ["export", "artillery", "flows/", "-h"], ["help", "export"]],
  },
};

/** The option entries of a command's help: each entry's options as written, and its words. */
function optionEntries(text: string): { head: string; words: string }[] {
  const section = text.slice(text.indexOf("\nOptions:\n") + 10, text.indexOf("\n\nExample"));
  const entries: { head: string; words: string }[] = [];
  for (const line of section.split("\n")) {
    if (/^ {2}-/.test(line)) {
      const [head, ...words] = line.trim().split(/ {2,}/);
      entries.push({ head, words: words.join(" ") });
    } else entries[entries.length - 1].words += line.trim();
  }
  return entries;
}

Deno.test("every subcommand that flowrun loads has a help of its own here", () => {
  assert.deepEqual(Object.keys(COMMANDS).sort(), Object.keys(SUBCOMMANDS).sort());
});

for (const [command, { options, usage, asks }] of Object.entries(COMMANDS)) {
  Deno.test(`${command} --help prints its own usage, each option its parser accepts and an example`, async () => {
    const runs = await Promise.all(asks.map((args) => runCli(args)));
    const text = runs[0].stdout;
    for (const [i, run] of runs.entries()) {
      assert.equal(run.code, 0, `${asks[i].join(" ")}: ${run.stderr}`);
      assert.equal(run.stderr, "", asks[i].join(" "));
      assert.equal(run.stdout, text, `${asks[i].join(" ")} prints the same help`);
    }
    assert.ok(text.startsWith(usage), text.slice(0, 120));
    const entries = optionEntries(text);
    for (const [name, spec] of Object.entries(options)) {
      const entry = entries.find(({ head }) => head.split(/[\s,]+/).includes(`--${name}`));
      assert.ok(entry, `${command} --help lists --${name}:\n${text}`);
      assert.match(entry.words, /\w/, `${command} --help says what --${name} does`);
      if (spec.short) assert.ok(entry.head.startsWith(`-${spec.short}, `), entry.head);
    }
    assert.match(text, new RegExp(`\\nExamples?:\\n {2}flowrun ${command} `));
    for (const other of Object.keys(COMMANDS).filter((name) => name !== command)) {
      assert.doesNotMatch(
        text,
        new RegExp(`flowrun ${other}\\b`),
        `no ${other} in ${command}'s help`,
      );
    }
    assert.ok(!text.includes("Options for run:"), "not the global help");
  });
}

Deno.test("help and version have their usage; help of an unknown command suggests one", async () => {
  const [version, helpHelp, unknown, global] = await Promise.all([
    runCli(["version", "--help"]),
    runCli(["help", "help"]),
    runCli(["help", "valdate"]),
    runCli(["help"]),
  ]);
  assert.equal(version.code, 0);
  assert.ok(version.stdout.startsWith("Usage: flowrun --version\n"), version.stdout);
  assert.equal(global.code, 0);
  assert.equal(global.stdout, HELP);
  assert.equal(helpHelp.stdout, HELP);
  assert.equal(unknown.code, 2);
  assert.match(unknown.stderr, /Unknown command "valdate"[\s\S]*flowrun validate/);
});
