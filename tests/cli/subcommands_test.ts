import assert from "node:assert/strict";
import { subcommand, SUBCOMMAND_FILES, SUBCOMMANDS } from "../../cli/subcommands.ts";
import {
  moduleGraph,
  renderRunGraph,
  RUN_GRAPH_FILE,
  runModules,
} from "../../scripts/run_graph.ts";

const ROOT = new URL("../../", import.meta.url);

/** The local files in the module graph Deno prepares to run an entry, dynamic imports included. */
const graphOf = (entry: string) => moduleGraph(entry, { dynamic: true });

Deno.test("cli.ts's module graph holds none of the subcommands: --version reads only what it runs", async () => {
  const graph = await graphOf("cli.ts");
  for (const file of SUBCOMMAND_FILES) assert.ok(!graph.includes(file), `${file} is in the graph`);
  // Every subcommand module reaches flow loading, so none of it may be prepared up front.
  assert.ok(!graph.includes("lib/load/load_flow.ts"), graph.join(" "));
  // cli.ts, its bundle check, and cli/main.ts's own: the bundle runs none of them but these two.
  // (28: the redactor cli/output.ts masks errors with keeps its pieces in piece_set.ts, and
  // unguessable.ts finds a token's random run, which its pieces come from; 29: tailed_texts.ts
  // indexes its public texts by their last characters, so thousands of names stay linear; 30 and
  // 31: value_walk.ts walks the values redactValue masks, own_fields.ts names the fields of
  // flowrun's own records, which a short secret is kept out of; 32 to 34: case_forms.ts and
  // echo_forms.ts give the other cases a server echoes a secret in, spaced_view.ts reads other
  // whitespace between a passphrase's words as one space; 35 and 36: loose_view.ts reads a text
  // lower-cased and unwrapped for a long secret, joined_words.ts a passphrase's words run together.)
  assert.ok(graph.length <= 36, `${graph.length} files: ${graph.join(" ")}`);
});

Deno.test("every subcommand's module exists, exports what cli.ts calls, and is a compile --include", async () => {
  const calls = {
    run: "run",
    merge: "merge",
    convert: "convert",
    validate: "validate",
    report: "renderReport",
    send: "send",
    export: "exportCommand",
  } as const;
  assert.deepEqual(Object.keys(SUBCOMMANDS).sort(), Object.keys(calls).sort());
  for (const name of Object.keys(calls) as (keyof typeof calls)[]) {
    const module = await subcommand(name);
    assert.equal(typeof (module as Record<string, unknown>)[calls[name]], "function", name);
    // `run` is a folder of its own (cli/run/), entered through its mod.ts.
    const file = name === "run" ? "cli/run/mod.ts" : `cli/${name}.ts`;
    assert.ok(SUBCOMMAND_FILES.includes(file), name);
    await Deno.stat(new URL(file, ROOT));
  }
  // cli/main.ts calls each subcommand by name, and nothing else loads them.
  const cli = await Deno.readTextFile(new URL("cli/main.ts", ROOT));
  for (const [name, fn] of Object.entries(calls)) {
    assert.ok(cli.includes(`(await subcommand("${name}")).${fn}(rest`), name);
  }
  for (const file of ["cli.ts", "cli/main.ts", "cli/subcommands.ts"]) {
    const text = await Deno.readTextFile(new URL(file, ROOT));
    // `typeof import(…)` names a type and loads nothing.
    const literal = /(?<!typeof )import\("\.\/(cli\/)?(run|merge|convert|validate|report|send)/;
    assert.ok(!literal.test(text), file);
  }
  // The bundle's entry names each one literally, so the bundler gives each a file of its own.
  const entry = await Deno.readTextFile(new URL("cli/bundle_entry.ts", ROOT));
  for (const file of SUBCOMMAND_FILES) {
    assert.ok(entry.includes(`import("./${file.slice(4)}")`), `${file} in cli/bundle_entry.ts`);
  }
});

Deno.test("cli/run_graph.ts imports every module a run evaluates, as scripts/run_graph.ts writes it", async () => {
  const modules = await runModules();
  // The run's own levels are all there: a flat list that missed them would not flatten anything.
  for (
    const file of [
      "lib/run/flows.ts",
      "lib/load/suite.ts",
      "lib/load/load_flow.ts",
      "lib/report/console.ts",
    ]
  ) {
    assert.ok(modules.includes(file), file);
  }
  for (const file of SUBCOMMAND_FILES) assert.ok(!modules.includes(file), file);
  const text = await Deno.readTextFile(new URL(RUN_GRAPH_FILE, ROOT));
  assert.equal(text, renderRunGraph(modules), "run: deno run -A scripts/run_graph.ts");
});
