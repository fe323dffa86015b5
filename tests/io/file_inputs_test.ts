/**
 * Every file a run reads is read only if it is a regular file (after
 * following symlinks) within its size limit: a device that never ends
 * (`/dev/zero`), a FIFO that never gets a writer, a directory, a symlink
 * loop and an oversized file each give one positioned message at once, for
 * every kind of input: what a flow names (bodies, multipart files, includes,
 * data files, schemas, OpenAPI documents, PEM files), what the command line
 * names (the flow path, `--setup`, `--teardown`, `--vars-file`,
 * `--env-file`, `--cacert`, `--cert`, `--key`, `--shard-timings`) and the
 * inputs of `convert har`, `merge` and `report html`. Every CLI run here is
 * killed after a bound, so a hang fails the test instead of the suite.
 */
import assert from "node:assert/strict";
import { readBytesSync } from "../../lib/io/read.ts";
import { type BoundedRun, runBounded } from "../support/cli.ts";
import { HANG_MS } from "../support/timing.ts";

const MIB = 1024 * 1024;

/** Runs `tasks` at most `n` at a time. */
async function limited<T>(n: number, tasks: (() => Promise<T>)[]): Promise<T[]> {
  const results: T[] = new Array(tasks.length);
  let next = 0;
  const worker = async () => {
    while (next < tasks.length) {
      const i = next++;
      results[i] = await tasks[i]();
    }
  };
  await Promise.all(Array.from({ length: Math.min(n, tasks.length) }, worker));
  return results;
}

type Kind = "device" | "fifo" | "directory" | "loop" | "oversize";
const KINDS: Kind[] = ["device", "fifo", "directory", "loop", "oversize"];

/** The code and the words of the reason each kind of hostile file gives. */
function expected(kind: Kind, tooLarge = "input-too-large"): { code: string; reason: RegExp } {
  switch (kind) {
    case "device":
      return { code: "not-a-regular-file", reason: /it is a character device, not a regular file/ };
    case "fifo":
      return {
        code: "not-a-regular-file",
        reason: /it is a FIFO \(named pipe\), not a regular file/,
      };
    case "directory":
      return { code: "not-a-regular-file", reason: /it is a directory, not a regular file/ };
    case "loop":
      return { code: "file-read", reason: /it is a symbolic link loop/ };
    case "oversize":
      return { code: tooLarge, reason: /MiB/ };
  }
}

/**
 * Asserts a CLI run refused a hostile file of `kind` at once: exit 2, no
 * stack, and a first line with the kind's code and reason that names
 * `named` (a regular-expression fragment: the option or the quoted path).
 */
function assertRefused(run: BoundedRun, label: string, kind: Kind, named: string): void {
  assert.equal(run.killed, false, `${label} hung`);
  assert.equal(run.code, 2, `${label}: ${run.stderr}`);
  assert.doesNotMatch(run.stderr, /internal error|\n\s+at /, label);
  const { code, reason } = expected(kind);
  const first = run.stderr.split("\n")[0];
  // A missing or looping file keeps the option's own code (bad-cacert); the rest have theirs.
  const codes = kind === "loop" ? "[a-z-]+" : code;
  assert.match(first, new RegExp(`^error\\[${codes}\\]: .*${named}`), `${label}: ${run.stderr}`);
  assert.match(first, reason, label);
}

/** A temporary directory of hostile files; `oversize(limit)` makes a sparse file one byte past it. */
async function hostileDir() {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-inputs-" });
  const made = await new Deno.Command("mkfifo", { args: [`${dir}/fifo`] }).output();
  assert.equal(made.code, 0, "mkfifo works here");
  await Deno.mkdir(`${dir}/folder`);
  await Deno.symlink(`${dir}/loop`, `${dir}/loop`);
  await Deno.writeTextFile(
    `${dir}/ok.yaml`,
    "name: ok\nsteps:\n  - name: a\n    request: {url: http://127.0.0.1:9/}\n",
  );
  const paths = async (limit: number, ext = ""): Promise<Record<Kind, string>> => {
    const big = `${dir}/big-${limit}${ext}`;
    await Deno.writeFile(big, new Uint8Array(0));
    // Sparse: one byte past the limit costs no disk and no time.
    await Deno.truncate(big, limit + 1);
    return {
      device: "/dev/zero",
      fifo: `${dir}/fifo`,
      directory: `${dir}/folder`,
      loop: `${dir}/loop`,
      oversize: big,
    };
  };
  return { dir, paths, remove: () => Deno.remove(dir, { recursive: true }) };
}

/** The problems `validate --format json` printed. */
function problemsOf(
  run: BoundedRun,
): { file: string; line: number; column: number; code: string; message: string }[] {
  assert.equal(run.killed, false, `validate hung:\n${run.stderr}`);
  assert.doesNotMatch(run.stderr, /internal error|\n\s+at /);
  return JSON.parse(run.stdout);
}

Deno.test("files a flow names are refused unless regular and within their limit, at the key that names them", async () => {
  const h = await hostileDir();
  try {
    const flows = `${h.dir}/flows`;
    await Deno.mkdir(flows);
    // One flow per kind of input, one step per kind of hostile file; each step's key on line 4 + 2i.
    const step = (i: number, body: string) => `  - name: s${i}\n    ${body}\n`;
    const kinds: { name: string; limit: number; tooLarge?: string; step: (p: string) => string }[] =
      [
        {
          name: "body",
          limit: 100 * MIB,
          step: (p) => `request: {url: "http://127.0.0.1:9/", method: POST, body_file: "${p}"}`,
        },
        {
          name: "multipart",
          limit: 100 * MIB,
          step: (p) =>
            `request: {url: "http://127.0.0.1:9/", method: POST, multipart: {f: {file: "${p}"}}}`,
        },
        {
          name: "include",
          limit: 10 * MIB,
          tooLarge: "file-too-large",
          step: (p) => `include: "${p}"`,
        },
        {
          name: "schema",
          limit: 32 * MIB,
          step: (p) => `request: {url: "http://127.0.0.1:9/"}\n    assert: {schema: "${p}"}`,
        },
        {
          name: "openapi",
          limit: 32 * MIB,
          step: (p) => `request: {url: "http://127.0.0.1:9/"}\n    assert: {openapi: "${p}"}`,
        },
        {
          name: "ca_cert",
          limit: 10 * MIB,
          step: (p) => `request: {url: "https://127.0.0.1:9/"}\n    options: {ca_cert: "${p}"}`,
        },
      ];
    const expectations: { file: string; line: number; code: string; reason: RegExp }[] = [];
    for (const kind of kinds) {
      const paths = await h.paths(kind.limit, ".json");
      const lines = KINDS.map((k, i) => step(i, kind.step(paths[k])));
      const perStep = kind.step("x").split("\n").length + 1;
      await Deno.writeTextFile(
        `${flows}/${kind.name}.yaml`,
        `name: ${kind.name}\nsteps:\n${lines.join("")}`,
      );
      KINDS.forEach((k, i) => {
        const line = 4 + perStep * i + (kind.step("x").includes("\n") ? 1 : 0);
        expectations.push({ file: `${kind.name}.yaml`, line, ...expected(k, kind.tooLarge) });
      });
    }
    // A data file of rows: one flow per hostile file, the key on line 2.
    const data = await h.paths(10 * MIB, ".csv");
    for (const k of KINDS) {
      await Deno.writeTextFile(
        `${flows}/data-${k}.yaml`,
        `name: data ${k}\ndata: {file: "${
          data[k]
        }"}\nvars: {a: ""}\nsteps:\n  - name: a\n    request: {url: "http://127.0.0.1:9/"}\n`,
      );
      expectations.push({ file: `data-${k}.yaml`, line: 2, ...expected(k) });
    }
    // Devices and /proc lie outside the run's default file root: with it at / the guards on
    // the kind and size of a file are what refuse them.
    const run = await runBounded(["validate", "--format", "json", "--file-root", "/", flows], {
      ms: HANG_MS,
    });
    const problems = problemsOf(run);
    assert.equal(run.code, 2);
    for (const want of expectations) {
      const got = problems.filter((p) => p.file.endsWith(`/${want.file}`) && p.line === want.line);
      assert.equal(
        got.length,
        1,
        `${want.file}:${want.line}: ${JSON.stringify(problems, null, 1)}`,
      );
      assert.equal(got[0].code, want.code, `${want.file}:${want.line}: ${got[0].message}`);
      assert.match(got[0].message, want.reason, `${want.file}:${want.line}`);
      assert.ok(got[0].column > 1, `${want.file}:${want.line} points at the value`);
    }
    assert.equal(problems.length, expectations.length, JSON.stringify(problems, null, 1));
    // Each refusal's reason above is the proof; the minute only tells a hang (an endless file
    // read to its end) from a busy machine.
    assert.ok(!run.killed, `still reading after ${HANG_MS} ms`);
  } finally {
    await h.remove();
  }
});

Deno.test("a flow path, --setup and --teardown that are not regular flow files each give one problem at the file", async () => {
  const h = await hostileDir();
  try {
    const paths = await h.paths(10 * MIB, ".yaml");
    const cases: { args: (p: string) => string[]; kinds: Kind[] }[] = [
      // A directory as a path argument is searched for flows: not a file read.
      {
        args: (p) => ["validate", "--format", "json", p],
        kinds: ["device", "fifo", "loop", "oversize"],
      },
      { args: (p) => ["run", "--setup", p, `${h.dir}/ok.yaml`], kinds: KINDS },
      { args: (p) => ["run", "--teardown", p, `${h.dir}/ok.yaml`], kinds: KINDS },
    ];
    const tasks = cases.flatMap((c) =>
      c.kinds.map((k) => async () => ({ k, c, run: await runBounded(c.args(paths[k])) }))
    );
    for (const { k, c, run } of await limited(4, tasks)) {
      const label = `${c.args(paths[k]).join(" ")}`;
      assert.equal(run.killed, false, `${label} hung`);
      assert.doesNotMatch(run.stderr, /internal error|\n\s+at /, label);
      assert.equal(run.code, 2, `${label}: ${run.stderr}`);
      const { code, reason } = expected(k, "file-too-large");
      const text = run.stdout + run.stderr;
      assert.match(text, new RegExp(`error\\[${code}\\]|"code": "${code}"`), `${label}: ${text}`);
      if (k !== "oversize") assert.match(text, reason, label);
      assert.ok(text.includes(`${paths[k]}:1:1`) || text.includes(`"file": "${paths[k]}"`), label);
    }
  } finally {
    await h.remove();
  }
});

Deno.test("a flow path that is a symlink loop gives the problem a loop inside a folder gives, exit 2", async () => {
  const h = await hostileDir();
  try {
    await Deno.mkdir(`${h.dir}/d`);
    await Deno.symlink(`${h.dir}/d/b.yaml`, `${h.dir}/d/a.yaml`);
    await Deno.symlink(`${h.dir}/d/a.yaml`, `${h.dir}/d/b.yaml`);
    const direct = await runBounded(["validate", `${h.dir}/d/a.yaml`]);
    const inFolder = await runBounded(["validate", `${h.dir}/d`]);
    for (const run of [direct, inFolder]) {
      assert.equal(run.code, 2, run.stdout + run.stderr);
      assert.doesNotMatch(run.stdout + run.stderr, /internal error|\n\s+at /);
    }
    const line = (text: string) =>
      text.split("\n").find((l) => l.includes(`${h.dir}/d/a.yaml:1:1`));
    assert.ok(line(direct.stdout), direct.stdout);
    assert.equal(line(direct.stdout), line(inFolder.stdout));
    assert.match(line(direct.stdout)!, /error\[file-read\]: .*symbolic link loop/);
  } finally {
    await h.remove();
  }
});

Deno.test("files the run's options name are refused unless regular and within their limit, naming the option", async () => {
  const h = await hostileDir();
  try {
    const small = await h.paths(10 * MIB);
    const report = await h.paths(256 * MIB, ".json");
    await Deno.writeTextFile(
      `${h.dir}/ok.pem`,
      "-----BEGIN CERTIFICATE-----\nx\n-----END CERTIFICATE-----\n",
    );
    const ok = `${h.dir}/ok.yaml`;
    const options: {
      option: string;
      paths: Record<Kind, string>;
      args: (p: string) => string[];
    }[] = [
      { option: "--vars-file", paths: small, args: (p) => ["run", ok, "--vars-file", p] },
      { option: "--env-file", paths: small, args: (p) => ["run", ok, "--env-file", p] },
      { option: "--cacert", paths: small, args: (p) => ["run", ok, "--cacert", p] },
      {
        option: "--cert",
        paths: small,
        args: (p) => ["run", ok, "--cert", p, "--key", `${h.dir}/ok.pem`],
      },
      {
        option: "--key",
        paths: small,
        args: (p) => ["run", ok, "--cert", `${h.dir}/ok.pem`, "--key", p],
      },
      {
        option: "--shard-timings",
        paths: report,
        args: (p) => ["run", ok, "--shard", "1/2", "--shard-timings", p],
      },
    ];
    const tasks = options.flatMap((o) =>
      KINDS.map((k) => async () => ({ o, k, run: await runBounded(o.args(o.paths[k])) }))
    );
    for (const { o, k, run } of await limited(4, tasks)) {
      assertRefused(run, `${o.option} ${k}`, k, o.option);
    }
  } finally {
    await h.remove();
  }
});

Deno.test("the inputs of convert har, merge and report html are refused unless regular and within their limit", async () => {
  const h = await hostileDir();
  try {
    const paths = await h.paths(256 * MIB, ".json");
    const commands: { name: string; args: (p: string) => string[] }[] = [
      { name: "convert", args: (p) => ["convert", "har", p, "-o", `${h.dir}/out.yaml`] },
      { name: "merge", args: (p) => ["merge", p, "--report-json", `${h.dir}/merged.json`] },
      { name: "report", args: (p) => ["report", "html", p, "-o", `${h.dir}/r.html`] },
    ];
    const tasks = commands.flatMap((c) =>
      KINDS.map((k) => async () => ({ c, k, run: await runBounded(c.args(paths[k])) }))
    );
    for (const { c, k, run } of await limited(4, tasks)) {
      assertRefused(run, `${c.name} ${k}`, k, `"${paths[k]}"`);
    }
  } finally {
    await h.remove();
  }
});

Deno.test({
  name: "a kernel interface file (/proc, /sys) is refused like a device, before it is opened",
  ignore: Deno.build.os !== "linux",
  fn: async () => {
    const dir = await Deno.makeTempDir({ prefix: "flowrun-inputs-" });
    try {
      // /proc/kmsg or tracefs's trace_pipe read for ever; these end, but are the same kind of file.
      const files = ["/proc/self/status", "/sys/kernel/mm/transparent_hugepage/enabled"];
      await Deno.symlink("/proc/self/environ", `${dir}/innocent.json`);
      files.push(`${dir}/innocent.json`);
      const steps = files.map((f, i) =>
        `  - name: s${i}\n    request: {url: "http://127.0.0.1:9/", method: POST, body_file: "${f}"}\n`
      );
      await Deno.writeTextFile(`${dir}/f.yaml`, `name: f\nsteps:\n${steps.join("")}`);
      const outside = problemsOf(
        await runBounded(["validate", "--format", "json", `${dir}/f.yaml`]),
      );
      // By default they lie outside the run's file root, links followed: refused unread.
      assert.ok(outside.length > 0, JSON.stringify(outside));
      for (const p of outside) assert.equal(p.code, "outside-file-root", p.message);
      const run = await runBounded([
        "validate",
        "--format",
        "json",
        "--file-root",
        "/",
        `${dir}/f.yaml`,
      ]);
      const problems = problemsOf(run);
      assert.equal(run.code, 2);
      const present = files.filter((f) => {
        try {
          return Deno.statSync(f).isFile;
        } catch {
          return false;
        }
      });
      assert.equal(problems.length, present.length, JSON.stringify(problems, null, 1));
      for (const p of problems) {
        assert.equal(p.code, "not-a-regular-file");
        assert.match(p.message, /it is a kernel interface file, not a regular file/);
      }
      // With every permission (the library in a process run with -A), Deno would read them:
      // the device of the file system refuses them then.
      for (const file of present) {
        assert.throws(() => readBytesSync(file), /it is a kernel interface file/, file);
      }
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});
