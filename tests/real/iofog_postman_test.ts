/**
 * `convert postman` on a second project's own collection against its real
 * server: Eclipse ioFog Controller's "Controller Testing" (287 requests,
 * 517 checks; its scripts chain the user's token and the ids of agents,
 * applications, microservices and catalog items through
 * `postman.setGlobalVariable` and `pm.globals.set`; its host `127.0.0.1:51121`
 * has no scheme; it uploads four YAML files; its bodies hold the Liquid
 * templates the server renders, `{{ self.name | upcase }}`), the suite
 * issue 52 measured. Newman runs it against fresh instance A with the
 * variable the project's CI gives (`host`); flowrun converts it with
 * default options and runs it as the summary prints it, with only what the
 * summary asks for (`HOST`, the files where it says), against fresh
 * instance B; both through one recording proxy (postman_proxy.ts). Goal:
 * the same requests in the same order with the same bodies (each instance's
 * ids read by where they came from) and statuses, every check Newman ran
 * passing under both, every check flowrun translated named as Newman's.
 * Ignored without a checkout of the controller (iofog.ts).
 */
import assert from "node:assert/strict";
import { runCli } from "../support/cli.ts";
import {
  IOFOG_COLLECTION,
  IOFOG_UPLOADS,
  iofogCheckout,
  iofogPackages,
  withIofog,
} from "./iofog.ts";
import { printedRun, readReport, type ReportStep } from "./measure.ts";
import { newmanRun } from "./newman_child.ts";
import type { NewmanRequest } from "./postman_newman.ts";
import { type Received, startRecordingProxy } from "./postman_proxy.ts";
import { prepare, realTest, start } from "./servers.ts";

const checkout = iofogCheckout();
const installed = checkout.source ? await prepare(iofogPackages(checkout.source)) : undefined;
const ignoredBecause = checkout.ignoredBecause || installed?.ignoredBecause || "";

/** An instance's own ids (32 letters and digits) and the provisioning keys its answers gave, by name. */
function normalised(received: readonly Received[]): string[] {
  const keys = received.flatMap((r) => {
    const key = parsed(r.answer)?.key;
    return typeof key === "string" && key.length >= 6 ? [key] : [];
  });
  const named = (text: string) =>
    keys.reduce((t, key) => t.replaceAll(key, "{key}"), text).replace(
      /\b[A-Za-z0-9]{32}\b/g,
      "{id}",
    );
  return received.map((r) => named(`${r.method} ${r.target} ${body(r.body)}`));
}

/** A JSON body by what it says; a multipart one by its parts, each runner's boundary line left out. */
function body(text: string): string {
  const json = parsed(text);
  if (json !== undefined) return JSON.stringify(json);
  const delimiter = text.split("\r\n", 1)[0];
  return /^--\S+$/.test(delimiter) ? text.split(delimiter).slice(1, -1).join("|") : text;
}

// deno-lint-ignore no-explicit-any
function parsed(text: string): any {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** Each request's checks as `✔ name` / `✘ name`, each name once, sorted. */
function newmanChecks(sent: readonly NewmanRequest[]): string[][] {
  return sent.map((r) =>
    [...new Set(r.assertions.map((a) => `${a.passed ? "✔" : "✘"} ${a.name}`))].sort()
  );
}

function flowrunChecks(steps: readonly ReportStep[]): string[][] {
  return steps.map((s) => {
    const named = ((s.assertions ?? []) as { name?: string; passed: boolean }[])
      .filter((a) => a.name !== undefined);
    return [...new Set(named.map((a) => `${a.passed ? "✔" : "✘"} ${a.name}`))].sort();
  });
}

/** Converts with default options; the printed run, with the uploads put where the summary says. */
async function convert(collection: string, dir: string): Promise<string[]> {
  const converted = await runCli(["convert", "postman", collection, "-o", `${dir}/flows`]);
  assert.equal(converted.code, 0, converted.stdout + converted.stderr);
  console.error(converted.stderr.split("\n").filter((l) => !l.startsWith("  ")).join("\n"));
  assert.match(converted.stderr, /^Set before running: HOST \(/m);
  for (const upload of IOFOG_UPLOADS) {
    const at = new RegExp(
      `^Put the file the collection uploads at (\\S+) .*sent as ${upload.name}\\)`,
      "m",
    )
      .exec(converted.stderr)?.[1];
    assert.ok(at, `no place for ${upload.name} in\n${converted.stderr}`);
    await Deno.copyFile(upload.path, at);
  }
  const args = printedRun(converted.stderr);
  assert.ok(args, converted.stderr);
  return args;
}

realTest(
  "ioFog Controller's own Postman collection, converted and run as printed against a real controller, sends Newman's 287 requests in Newman's order, and every check passes",
  ignoredBecause,
  async (dir) => {
    const prefix = installed!.install!.prefix;
    const collection = `${dir}/Controller.postman_collection.json`;
    await Deno.copyFile(IOFOG_COLLECTION, collection);
    // Newman reads the uploads from its working folder, as the project's CI does: ./test/NAME.
    await Deno.mkdir(`${dir}/test`);
    for (const u of IOFOG_UPLOADS) await Deno.copyFile(u.path, `${dir}/test/${u.name}`);
    const proxy = startRecordingProxy();
    try {
      const host = proxy.origin.replace(/^http:\/\//, "");
      const [sent, newman] = await withIofog(checkout.source!, prefix, start, async (a) => {
        proxy.point(a.origin);
        return [await newmanRun(collection, dir, [`host=${host}`]), proxy.received()] as const;
      });
      const args = await convert(collection, dir);
      const [steps, flowrun] = await withIofog(checkout.source!, prefix, start, async (b) => {
        proxy.point(b.origin);
        const run = await runCli([...args, "--report-json", `${dir}/report.json`], {
          env: { HOST: host },
        });
        console.error(`flowrun exit ${run.code}`);
        return [(await readReport(`${dir}/report.json`)).steps, proxy.received()] as const;
      });
      const [n, f] = [newmanChecks(sent), flowrunChecks(steps)];
      const count = (c: string[][], mark = "") => c.flat().filter((t) => t.startsWith(mark)).length;
      const untranslated = n.flatMap((names, i) => names.filter((c) => !f[i]?.includes(c)));
      console.error(
        `ioFog Controller: Newman sent ${newman.length} requests, flowrun ${flowrun.length}; ` +
          `checks: Newman ${count(n, "✔")}/${count(n)} passed; flowrun ${count(f, "✔")}/${
            count(f)
          } ` +
          `(named as Newman's); Newman's checks not among flowrun's: ${untranslated.length}`,
      );
      assert.equal(newman.length, 287);
      assert.deepEqual(normalised(flowrun), normalised(newman));
      assert.deepEqual(flowrun.map((r) => r.status), newman.map((r) => r.status));
      assert.equal(count(n, "✘"), 0, "a check failed under Newman: the controller, not a runner");
      assert.equal(count(f, "✘"), 0, JSON.stringify(f.flat().filter((c) => c.startsWith("✘"))));
      // flowrun's named checks are Newman's; those it could not translate are kept as comments.
      assert.deepEqual(
        f.map((names, i) => names.filter((c) => !n[i].includes(c))),
        f.map(() => []),
      );
      assert.ok(untranslated.length <= 13, untranslated.join("; "));
    } finally {
      await proxy.close();
    }
  },
);
