import assert from "node:assert/strict";
import { readNetwork, readShardTimings, readVarFiles } from "../../../cli/run/inputs.ts";
import { UsageError } from "../../../lib/model/errors.ts";

/** Reads from a map of paths to texts; any other path does not exist. */
const files = (texts: Record<string, string>) => (path: string) =>
  Object.hasOwn(texts, path)
    ? Promise.resolve(texts[path])
    : Promise.reject(new Error("No such file or directory (os error 2)."));

/** The code and message of the usage error `promise` rejects with. */
async function refusal(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof UsageError, String(error));
    return `${error.code}: ${error.message}`;
  }
  assert.fail("no usage error");
}

Deno.test("--vars-file then --var: later files win, and --var wins over every file", async () => {
  const read = files({ "a.yaml": "x: a\ny: a\n", "b.yaml": "y: b\nz: b\n", ".env": "E=1\nE=2\n" });
  const { params, envFile } = await readVarFiles({
    varsFiles: ["a.yaml", "b.yaml"],
    envFiles: [".env"],
    params: new Map([["z", "cli"]]),
  }, read);
  assert.deepEqual(params, new Map([["x", "a"], ["y", "b"], ["z", "cli"]]));
  assert.deepEqual(envFile, new Map([["E", "2"]]));
});

Deno.test("a variables file that cannot be read names its option and path", async () => {
  const plan = { varsFiles: [], envFiles: ["missing.env"], params: new Map() };
  assert.equal(
    await refusal(readVarFiles(plan, files({}))),
    "file-read: --env-file missing.env: No such file or directory (os error 2).",
  );
});

Deno.test("network: none given is undefined; PEM files are read and checked", async () => {
  const none = { caFiles: [], insecure: false };
  assert.equal(await readNetwork(none, files({})), undefined);
  assert.deepEqual(await readNetwork({ ...none, noProxy: " a, ,b " }, files({})), {
    noProxy: ["a", "b"],
  });
  assert.equal(
    await refusal(readNetwork({ ...none, caFiles: ["ca.pem"] }, files({}))),
    'bad-cacert: Cannot read --cacert "ca.pem": No such file or directory (os error 2)..',
  );
  assert.equal(
    await refusal(readNetwork({ ...none, caFiles: ["ca.pem"] }, files({ "ca.pem": "hello" }))),
    'bad-cacert: --cacert "ca.pem" is not PEM text.',
  );
  assert.equal(
    await refusal(
      readNetwork({ ...none, cert: "c.pem", key: "k.pem" }, files({ "c.pem": "-----BEGIN X" })),
    ),
    'bad-key: Cannot read --key "k.pem": No such file or directory (os error 2)..',
  );
});

Deno.test("--shard-timings: reports are parsed; one that is not JSON is a usage error", async () => {
  assert.equal(await readShardTimings(undefined, files({})), undefined);
  assert.equal(await readShardTimings([], files({})), undefined);
  const report = { flows: [{ file: "a.yaml", duration_ms: 120 }] };
  const times = await readShardTimings(["r.json"], files({ "r.json": JSON.stringify(report) }));
  assert.ok(times instanceof Map);
  assert.match(
    await refusal(readShardTimings(["r.json"], files({ "r.json": "{" }))),
    /^bad-shard-timings: Cannot use --shard-timings "r.json": /,
  );
});
