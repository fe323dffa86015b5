/**
 * A plain HTTP run loads only the npm packages it uses: not the `yaml`
 * package (about 75 ms through Deno's CommonJS layer; the loader's fast path
 * reads ordinary flows without it), nor a step kind's client (gRPC's
 * grpc-js, proto-loader and protobufjs; WebSocket's ws), which load when a
 * flow has such a step. A kind's reader once imported `yaml` for its node
 * tests and every run paid for it. Seen by the files the process opens
 * (`strace`, a Debian package .ci/run installs), from source, not the bundle.
 */
import assert from "node:assert/strict";
import { root } from "../support/cli.ts";

const hasStrace = await new Deno.Command("strace", { args: ["-V"], stdout: "null", stderr: "null" })
  .output().then((o) => o.success).catch(() => false);

/** The npm packages whose files a `flowrun run` of `flow` opened, from source. */
async function packagesOpened(flow: string, code: number): Promise<Set<string>> {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-packages-" });
  try {
    await Deno.writeTextFile(`${dir}/f.yaml`, flow);
    const out = await new Deno.Command("strace", {
      args: [
        "-f",
        "-e",
        "trace=openat",
        "-o",
        `${dir}/trace.txt`,
        Deno.execPath(),
        "run",
        "-A",
        `${root}tests/fixtures/packages/run_from_source.ts`,
        "run",
        `${dir}/f.yaml`,
      ],
      cwd: root,
      env: { NO_COLOR: "1", DENO_NO_UPDATE_CHECK: "1" },
      stdout: "null",
      stderr: "piped",
    }).output();
    const stderr = new TextDecoder().decode(out.stderr);
    assert.equal(out.code, code, stderr.slice(0, 2000));
    const trace = await Deno.readTextFile(`${dir}/trace.txt`);
    // The run really ran from source: its runner's modules were opened.
    assert.match(trace, /lib\/run\/flows\.ts/);
    // A package's registry.json is read to resolve its version, not to load it: files only.
    const opened = trace.matchAll(/registry\.npmjs\.org\/((?:@[^/"]+\/)?[^/"]+)\/\d[^/"]*\/[^"]+/g);
    return new Set([...opened].map((m) => m[1]));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test({
  name: `a one-request HTTP run opens no file of yaml or of a step kind's client${
    hasStrace ? "" : " (ignored: no strace here)"
  }`,
  ignore: !hasStrace,
  async fn() {
    const server = Deno.serve(
      { hostname: "127.0.0.1", port: 0, onListen() {} },
      () => Response.json({ ok: true }),
    );
    try {
      const flow =
        `name: one\nsteps:\n  - name: s\n    request: { url: "http://127.0.0.1:${server.addr.port}/" }\n    assert: { status: 200 }\n`;
      const opened = await packagesOpened(flow, 0);
      for (const name of ["yaml", "protobufjs", "@grpc/grpc-js", "@grpc/proto-loader", "ws"]) {
        assert.ok(!opened.has(name), `${name} was loaded: ${[...opened].join(", ")}`);
      }
    } finally {
      await server.shutdown();
    }
  },
});

Deno.test({
  name: `the check can fail: a flow the fast path cannot read loads yaml${
    hasStrace ? "" : " (ignored: no strace here)"
  }`,
  ignore: !hasStrace,
  async fn() {
    // An anchor and alias: the loader's fast path hands such a file to the yaml package.
    const opened = await packagesOpened(
      `name: one\nvars: &v { a: 1 }\nsteps:\n  - name: s\n    request: { url: "http://127.0.0.1:9/" }\n    options: { timeout: 1s }\n`,
      1,
    );
    assert.ok(opened.has("yaml"), [...opened].join(", "));
  },
});
