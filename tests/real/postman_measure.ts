/**
 * The measure of the Postman tests of tests/real/: a collection made from a
 * real server's own OpenAPI document, run by Newman on one fresh instance and
 * by flowrun, converted with default options and run as its summary prints
 * it, on another, both through one recording proxy.
 *
 * @module
 */
import assert from "node:assert/strict";
import { runCli } from "../support/cli.ts";
import { printedRun, readReport, type ReportStep } from "./measure.ts";
import { newmanRun } from "./newman_child.ts";
import type { NewmanRequest } from "./postman_newman.ts";
import { type Received, type RecordingProxy, startRecordingProxy } from "./postman_proxy.ts";
import { type Launch, withInstance } from "./servers.ts";

/**
 * The variables a `convert postman` summary asks for (`Set before running: A (…), B.`).
 *
 * @example
 * ```ts
 * import { postmanAsked } from "./postman_measure.ts";
 * const asked = postmanAsked("Set before running: BASE_URL (…), API_KEY.\n");
 * if (asked.join() !== "BASE_URL,API_KEY") throw new Error(asked.join());
 * ```
 */
export function postmanAsked(summary: string): string[] {
  const line = /^Set before running: (.*)$/m.exec(summary)?.[1] ?? "";
  return [...line.matchAll(/(?:^|, )([A-Z][A-Z0-9_]*)/g)].map((m) => m[1]);
}

/** What one collection measured under Newman and under flowrun. */
export interface Measured {
  newman: NewmanRequest[];
  newmanReceived: Received[];
  summary: string;
  asked: string[];
  steps: ReportStep[];
  flowrunReceived: Received[];
  flows: string;
  runOutput: string;
}

/**
 * Fetches the document at `document` from a fresh instance, points its
 * `servers` at the proxy (where the user's server stands), makes the
 * collection with `make`, then runs Newman (instance A) and flowrun as
 * printed, with only the variables its summary asks for (instance B, made
 * ready by `prepareB`).
 *
 * @example
 * ```ts ignore
 * import { measurePostman } from "./postman_measure.ts";
 * import { postmanImport } from "./postman_generators.ts";
 * const m = await measurePostman(launch, "/openapi.json", (doc, out) => postmanImport(prefix, doc, out));
 * ```
 */
export async function measurePostman(
  launch: Launch,
  document: string,
  make: (doc: string, collection: string, dir: string) => Promise<void>,
  prepareB: (origin: string) => Promise<void> = async () => {},
): Promise<Measured> {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-real-postman-" });
  const proxy: RecordingProxy = startRecordingProxy();
  try {
    const doc = await withInstance(launch, async (a) => {
      const response = await fetch(`${a.origin}${document}`);
      assert.equal(response.status, 200);
      return await response.json();
    });
    doc.servers = [{ url: proxy.origin }];
    await Deno.writeTextFile(`${dir}/openapi.json`, JSON.stringify(doc, null, 2));
    const collection = `${dir}/collection.json`;
    await make(`${dir}/openapi.json`, collection, dir);

    const [newman, newmanReceived] = await withInstance(launch, async (a) => {
      proxy.point(a.origin);
      return [await newmanRun(collection, dir), proxy.received()] as const;
    });

    const converted = await runCli(["convert", "postman", collection, "-o", `${dir}/flows`]);
    assert.equal(converted.code, 0, converted.stdout + converted.stderr);
    // The summary says where to put each file the collection uploads: the user's own, which
    // Newman read from its working folder; where the collection names none (the importer's
    // form field has no `src`), the user has none, and the placeholder stays.
    for (
      const m of converted.stderr.matchAll(/^Put the file the collection uploads at (\S+) \(/gm)
    ) {
      const own = `${dir}/${m[1].split("/").at(-1)!.replace(/\.upload$/, "")}`;
      await Deno.copyFile(own, m[1]).catch((e) => {
        if (!(e instanceof Deno.errors.NotFound)) throw e;
      });
    }
    const asked = postmanAsked(converted.stderr);
    const env: Record<string, string> = {};
    for (const name of asked) {
      if (name !== "BASE_URL") {
        throw new Error(`the summary asks for ${name}, which a new user cannot know`);
      }
      env[name] = proxy.origin;
    }
    const args = printedRun(converted.stderr);
    assert.ok(args, `no Run: line in\n${converted.stderr}`);
    let flows = "";
    for await (const entry of Deno.readDir(`${dir}/flows`)) {
      if (entry.name.endsWith(".yaml")) {
        flows += await Deno.readTextFile(`${dir}/flows/${entry.name}`);
      }
    }
    return await withInstance(launch, async (b) => {
      await prepareB(b.origin);
      proxy.point(b.origin);
      const run = await runCli([...args, "--report-json", `${dir}/report.json`], { env });
      const report = await readReport(`${dir}/report.json`).catch(() => undefined);
      assert.ok(report, `no report:\n${run.stdout}\n${run.stderr}`);
      return {
        newman,
        newmanReceived,
        summary: converted.stderr,
        asked,
        steps: report.steps,
        flowrunReceived: proxy.received(),
        flows,
        runOutput: run.stdout + run.stderr,
      };
    });
  } finally {
    await proxy.close();
    await Deno.remove(dir, { recursive: true });
  }
}
