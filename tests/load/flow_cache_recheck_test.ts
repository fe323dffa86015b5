/**
 * A cache entry grants nothing the flow file does not, even when it reads
 * back (the seal of `--cache-dir` is the disk's guard; this is the loader's):
 * a token command needs `--allow-commands` and must be the file's, and the
 * `${ENV.*}` names and URL hosts are among the file's. Anything else is a
 * miss: the file is loaded, and its entry written again.
 */
import assert from "node:assert/strict";
import "../support/engines.ts";
import type { FlowCache } from "../../lib/load/flow_cache.ts";
import { loadFlow } from "../../lib/load/load_flow.ts";
import { loadFlows } from "../../lib/load/suite.ts";

const FILE_TEXT = 'name: f\nvars: {who: "http://good.test/me", host: good.test, port: 443}\n' +
  'steps:\n  - name: s\n    request: {url: "http://good.test/a/${ENV.BASE_PATH}"}\n' +
  '  - name: t\n    request:\n      url: "http://${vars.host}:${vars.port}/b"\n' +
  "      headers:\n        x-note: >-\n          two lines,\n          kept\n";
const env = (name: string) =>
  ({ BASE_PATH: "p", API_TOKEN: "tok-recheck-1", HOST: "evil.test" } as Record<string, string>)[
    name
  ];

/** A cache in memory with one entry, and how often it was read back. */
function memoryCache() {
  const entries = new Map<string, string>();
  const cache: FlowCache = {
    read: (key) => entries.get(key),
    write: (key, text) => void entries.set(key, text),
  };
  return { cache, entries };
}

/** The forged entry: the file's own entry with its flow swapped for `text`'s, loaded freely. */
function forge(entries: Map<string, string>, text: string, file?: string): string {
  const [[key, stored]] = [...entries];
  const entry = JSON.parse(stored);
  const forged = loadFlow(text, file ?? entry.flow.file, { allowCommands: true, env });
  assert.deepEqual(forged.problems, [], text);
  entry.flow = forged.flow;
  entry.env = [...new Set([...text.matchAll(/ENV\.(\w+)/g)].map((m) => m[1]))].map((n) => [
    n,
    true,
  ]);
  const json = JSON.stringify(entry);
  entries.set(key, json);
  return json;
}

const ATTACKS: [string, string][] = [
  [
    "a token command",
    FILE_TEXT.replace("steps:", "auth: {bearer: {command: [sh, -c, 'echo t']}}\nsteps:"),
  ],
  ["another host", FILE_TEXT.replace("http://good.test/a/", "http://evil.test/a/")],
  [
    "a host from the environment",
    FILE_TEXT.replace("http://good.test/a/", "http://${ENV.HOST}/a/"),
  ],
  ["another environment variable", FILE_TEXT.replace("BASE_PATH}", "API_TOKEN}")],
  ["a host in a variable", FILE_TEXT.replace("http://good.test/me", "http://evil.test/me")],
  ["a bare host in a variable", FILE_TEXT.replace("host: good.test", "host: evil.test")],
  ["another port in a variable", FILE_TEXT.replace("port: 443", "port: 8443")],
  ["another header value", FILE_TEXT.replace("kept\n", "kept ${ENV.BASE_PATH}\n")],
  ["TLS checks off", FILE_TEXT.replace("steps:", "options: {insecure: true}\nsteps:")],
  ["a raw expression", FILE_TEXT.replace('/b"', '/b?${raw:vars.host}"')],
];

for (const [what, text, file] of [...ATTACKS, ["another path", FILE_TEXT, "other.yaml"]]) {
  Deno.test(`a cached flow with ${what} the file does not have is a miss`, async () => {
    const dir = await Deno.makeTempDir({ prefix: "flowrun-recheck-" });
    try {
      await Deno.writeTextFile(`${dir}/f.yaml`, FILE_TEXT);
      const { cache, entries } = memoryCache();
      const plain = await loadFlows([dir], { env });
      await loadFlows([dir], { env, cache });
      assert.equal(entries.size, 1);
      const forged = forge(entries, text, file);
      const again = await loadFlows([dir], { env, cache });
      assert.deepEqual(again.problems, []);
      assert.deepEqual(
        JSON.parse(JSON.stringify(again.flows)),
        JSON.parse(JSON.stringify(plain.flows)),
      );
      assert.notEqual([...entries.values()][0], forged, "the forged entry was kept");
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  });
}

Deno.test("a cached token command is used only with --allow-commands and only as the file writes it", async () => {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-recheck-" });
  try {
    const text = FILE_TEXT.replace(
      "steps:",
      "auth: {bearer: {command: [gh, auth, token]}}\nsteps:",
    );
    await Deno.writeTextFile(`${dir}/f.yaml`, text);
    const { cache, entries } = memoryCache();
    let reads = 0;
    let writes = 0;
    const counting: FlowCache = {
      read: (key) => (reads++, cache.read(key)),
      write: (key, entry) => (writes++, cache.write(key, entry)),
    };
    const first = await loadFlows([dir], { env, cache: counting, allowCommands: true });
    assert.deepEqual(first.problems, []);
    const kept = [...entries.values()][0];
    // The file's own entry reads back: the same flow, the entry untouched.
    const hit = await loadFlows([dir], { env, cache: counting, allowCommands: true });
    assert.deepEqual(
      JSON.parse(JSON.stringify(hit.flows)),
      JSON.parse(JSON.stringify(first.flows)),
    );
    assert.equal([...entries.values()][0], kept);
    // A hit: read, not written again (a flow with `http://${vars.host}` is kept and used).
    assert.deepEqual({ reads, writes }, { reads: 2, writes: 1 });
    // Without --allow-commands the file is refused, as it always was.
    const refused = await loadFlows([dir], { env, cache: counting });
    assert.deepEqual(refused.problems.map((p) => p.code), ["command-not-allowed"]);
    // A program the file does not name is a miss, even with --allow-commands.
    const forged = forge(entries, text.replace("[gh, auth, token]", "[sh, -c, 'echo t']"));
    const again = await loadFlows([dir], { env, cache: counting, allowCommands: true });
    assert.deepEqual(
      JSON.parse(JSON.stringify(again.flows)),
      JSON.parse(JSON.stringify(first.flows)),
    );
    assert.notEqual([...entries.values()][0], forged);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
