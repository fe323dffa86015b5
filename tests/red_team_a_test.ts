/**
 * Variations on issue 37's classes that its first tests did not cover, found
 * by attacking the fixes: a cache folder whose entry is a FIFO or a symlink,
 * data rows of setup and teardown flows, a proxy password holding an
 * unencoded `/`, `?` or `#` after digits (a URL parser then reads a port and
 * a path), and a `Domain` attribute with a trailing dot. Every CLI run here
 * is killed after a bound, so a hang fails the test instead of the suite.
 */
import assert from "node:assert/strict";
import { runBounded } from "./support/cli.ts";
import { CookieJar, publicSuffixes } from "../lib/http/cookie_jar.ts";
import { maskUserinfo, userinfoSecrets } from "../lib/secrets/userinfo.ts";

/** How long a run here may take before it is killed (a hang must fail the test, never the suite). */
const BOUND_MS = 15_000;

/** Every file under `dir`, as text, by name (one level: the artifacts of `--out-dir`). */
async function texts(dir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for await (const e of Deno.readDir(dir)) {
    if (e.isFile) out[e.name] = await Deno.readTextFile(`${dir}/${e.name}`);
  }
  return out;
}

Deno.test("a cache entry that is a FIFO or a symlink is replaced, never opened: no hang, no write through", async () => {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-ra-cache-" });
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    () => new Response("ok"),
  );
  try {
    await Deno.writeTextFile(
      `${dir}/f.yaml`,
      `name: f\nsteps:\n  - name: s\n    request: { url: "http://127.0.0.1:${server.addr.port}/" }\n    assert: { status: 200 }\n`,
    );
    const args = ["run", "f.yaml", "--cache-dir", "cache"];
    const first = await runBounded(args, { cwd: dir, ms: BOUND_MS });
    assert.equal(first.code, 0, first.stderr);
    const entries = [...Deno.readDirSync(`${dir}/cache`)].map((e) => e.name);
    assert.equal(entries.length, 1, entries.join());
    const entry = `${dir}/cache/${entries[0]}`;

    // A FIFO nobody writes to: reading it is a miss; writing the entry must not wait for a reader.
    await Deno.remove(entry);
    const made = await new Deno.Command("mkfifo", { args: [entry] }).output();
    assert.equal(made.code, 0);
    const fifo = await runBounded(args, { cwd: dir, ms: 10_000 });
    assert.equal(fifo.killed, false, "a FIFO in the cache folder held the run");
    assert.equal(fifo.code, 0, fifo.stderr);

    // A symlink to a file elsewhere: the entry is replaced, the file it points at is not written.
    await Deno.remove(entry);
    await Deno.writeTextFile(`${dir}/victim.txt`, "keep me\n");
    await Deno.symlink(`${dir}/victim.txt`, entry);
    const link = await runBounded(args, { cwd: dir, ms: 10_000 });
    assert.equal(link.code, 0, link.stderr);
    assert.equal(await Deno.readTextFile(`${dir}/victim.txt`), "keep me\n");
    assert.ok(Deno.lstatSync(entry).isFile, "the entry is a file of its own again");
  } finally {
    await server.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("data columns with secret names are masked in setup and teardown flows too", async () => {
  const secrets = ["Setup-pw-7q2z9x", "Teardown-key-4k8w1v"];
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    async (req) =>
      new Response(JSON.stringify({ got: await req.text(), url: req.url }), {
        status: 500,
        headers: { "content-type": "application/json" },
      }),
  );
  const dir = await Deno.makeTempDir({ prefix: "flowrun-ra-rows-" });
  try {
    const url = `http://127.0.0.1:${server.addr.port}`;
    const flow = (name: string, column: string, value: string) =>
      `name: ${name}\nvars: { ${column}: none }\ndata: [{ ${column}: "${value}" }]\nsteps:\n` +
      `  - name: s\n    request: { method: POST, url: "${url}/\${vars.${column}}", ` +
      `body: { v: "\${vars.${column}}" } }\n    assert: { status: 200 }\n`;
    await Deno.writeTextFile(`${dir}/setup.yaml`, flow("setup", "password", secrets[0]));
    await Deno.writeTextFile(`${dir}/teardown.yaml`, flow("teardown", "apiKey", secrets[1]));
    await Deno.writeTextFile(
      `${dir}/main.yaml`,
      `name: main\nsteps:\n  - name: s\n    request: { url: "${url}/" }\n`,
    );
    const run = await runBounded(
      [
        "run",
        "main.yaml",
        "--setup",
        "setup.yaml",
        "--teardown",
        "teardown.yaml",
        "--out-dir",
        "out",
      ],
      {
        cwd: dir,
        ms: BOUND_MS,
        env: { GITHUB_ACTIONS: "true", GITHUB_STEP_SUMMARY: `${dir}/out/summary.md` },
      },
    );
    assert.equal(run.killed, false);
    assert.equal(run.code, 1, run.stdout + run.stderr);
    const all: Record<string, string> = {
      stdout: run.stdout,
      stderr: run.stderr,
      ...await texts(`${dir}/out`),
    };
    assert.ok(all["report.json"].includes(`${url}/***`), "the setup flow ran with its row");
    for (const [where, text] of Object.entries(all)) {
      for (const secret of secrets) {
        for (const form of [secret, encodeURIComponent(secret), btoa(secret).slice(0, 12)]) {
          assert.ok(!text.includes(form), `${where} holds ${form}`);
        }
      }
    }
  } finally {
    await server.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a value an include gives a secret-named var is masked in every artifact", async () => {
  const secret = "With-pw-5r8t2y";
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    async (req) =>
      new Response(JSON.stringify({ got: await req.text() }), {
        status: 500,
        headers: { "content-type": "application/json" },
      }),
  );
  const dir = await Deno.makeTempDir({ prefix: "flowrun-ra-with-" });
  try {
    const url = `http://127.0.0.1:${server.addr.port}`;
    await Deno.mkdir(`${dir}/shared`);
    await Deno.writeTextFile(
      `${dir}/shared/login.yaml`,
      `name: login\nvars: { password: none }\nsteps:\n  - name: s\n    request: ` +
        `{ method: POST, url: "${url}/\${vars.password}", body: { p: "\${vars.password}" } }\n` +
        `    assert: { status: 200 }\n`,
    );
    await Deno.writeTextFile(
      `${dir}/main.yaml`,
      `name: main\nsteps:\n  - name: in\n    include: shared/login.yaml\n    with: { password: "${secret}" }\n`,
    );
    const run = await runBounded(["run", "main.yaml", "--out-dir", "out"], {
      cwd: dir,
      ms: BOUND_MS,
    });
    assert.equal(run.code, 1, run.stdout + run.stderr);
    const all: Record<string, string> = {
      stdout: run.stdout,
      stderr: run.stderr,
      ...await texts(`${dir}/out`),
    };
    assert.ok(all["report.json"].includes(`${url}/***`), all["report.json"]);
    for (const [where, text] of Object.entries(all)) {
      for (const form of [secret, btoa(secret).slice(0, 12)]) {
        assert.ok(!text.includes(form), `${where} holds ${form}`);
      }
    }
  } finally {
    await server.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});

/** Proxy passwords a URL parser reads as a port and a path, query or fragment. */
const SPLIT_PASSWORDS = ["12/Zq7-pw", "12?Zq7-pw", "12#Zq7-pw", "8080/a/Zq7@pw"];

Deno.test("a proxy password a URL parser would read as a port and a path is masked whole", () => {
  for (const password of SPLIT_PASSWORDS) {
    const proxy = `http://user:${password}@127.0.0.1:9`;
    assert.equal(maskUserinfo(proxy, { proxy: true }), "http://user:***@127.0.0.1:9", proxy);
    assert.ok(userinfoSecrets(proxy, { proxy: true }).includes(password), proxy);
  }
  // A request URL keeps its path: `/users/@me` holds no password.
  assert.deepEqual(userinfoSecrets("http://127.0.0.1:8080/users/@me"), []);
  assert.equal(maskUserinfo("http://host:8080/a@b"), "http://host:8080/a@b");
});

Deno.test("a proxy URL with a path, query or fragment is refused, its password never shown", async () => {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-ra-proxy-" });
  try {
    await Deno.writeTextFile(
      `${dir}/f.yaml`,
      "name: f\nsteps:\n  - name: s\n    request: { url: http://127.0.0.1:9/ }\n",
    );
    const runs = await Promise.all(SPLIT_PASSWORDS.map((password) =>
      runBounded(
        ["run", "f.yaml", "--proxy", `http://user:${password}@127.0.0.1:9`, "--out-dir", "out"],
        { cwd: dir, ms: BOUND_MS },
      )
    ));
    for (const [i, run] of runs.entries()) {
      const label = SPLIT_PASSWORDS[i];
      assert.equal(run.code, 2, `${label}: ${run.stdout}${run.stderr}`);
      assert.match(
        run.stderr,
        /^error\[bad-proxy\]: --proxy "http:\/\/user:\*\*\*@127\.0\.0\.1:9"/,
      );
      assert.ok(!(run.stdout + run.stderr).includes("Zq7"), `${label}: ${run.stderr}`);
    }
    // The same in a flow's options: one problem, the password masked.
    await Deno.writeTextFile(
      `${dir}/p.yaml`,
      `name: p\noptions: { proxy: "http://user:${
        SPLIT_PASSWORDS[0]
      }@127.0.0.1:9" }\nsteps:\n  - name: s\n    request: { url: http://127.0.0.1:9/ }\n`,
    );
    const validate = await runBounded(["validate", "p.yaml"], { cwd: dir, ms: BOUND_MS });
    assert.equal(validate.code, 2, validate.stdout + validate.stderr);
    const shown = validate.stdout + validate.stderr;
    assert.match(
      shown,
      /error\[bad-proxy\]: proxy "http:\/\/user:\*\*\*@127\.0\.0\.1:9" has a path/,
    );
    assert.ok(!shown.includes("Zq7"), shown);
    // Any problem at a proxy value shows its line with the password masked (here a `\`).
    await Deno.writeTextFile(
      `${dir}/q.yaml`,
      `name: q\noptions: { proxy: 'http://user:Zq7\\pw@127.0.0.1:9' }\nsteps:\n  - name: s\n    request: { url: http://127.0.0.1:9/ }\n`,
    );
    const other = await runBounded(["validate", "q.yaml", "--format", "json"], {
      cwd: dir,
      ms: BOUND_MS,
    });
    assert.equal(other.code, 2, other.stdout + other.stderr);
    assert.match(other.stdout, /bad-proxy/);
    assert.ok(!(other.stdout + other.stderr).includes("Zq7"), other.stdout);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a Domain with a trailing dot is still a public suffix", async () => {
  await publicSuffixes.load();
  const cases: [from: string, line: string, to: string][] = [
    ["https://shop.example.co.uk./", "a=1; Domain=co.uk.", "https://bank.other.co.uk./"],
    ["https://foo.github.io./", "a=1; Domain=GitHub.IO.", "https://bar.github.io./"],
    ["https://a.example.com./", "a=1; Domain=com..", "https://b.other.com./"],
  ];
  for (const [from, line, to] of cases) {
    const jar = new CookieJar();
    jar.store(from, [line]);
    assert.equal(jar.header(to), undefined, `${line} from ${from} reached ${to}`);
  }
  // A site's own domain, written with the dot, still works for its hosts.
  const jar = new CookieJar();
  jar.store("https://a.example.co.uk./", ["b=2; Domain=example.co.uk."]);
  assert.equal(jar.header("https://c.example.co.uk./"), "b=2");
});
