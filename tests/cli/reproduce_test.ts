/**
 * The `reproduce:` line reproduces: for every option that shapes what a
 * flow does, a failing run prints its line, the line is run as printed
 * (`sh -c`, same working directory) and fails the same way — same failing
 * step and message in the recap, and the same reproduce line again.
 */
import assert from "node:assert/strict";
import type { CliRun } from "../support/cli.ts";
import { failedBlock, reproduceLines, rerunsAlike } from "../support/reproduce.ts";
import { forwardProxy, hasOpenssl, makeCertificates } from "../support/tls.ts";
import { httpsServe } from "../support/tls_servers.ts";

/** The test server: a status by path, an echo of what arrived, a cookie, a slow and a big body. */
function server() {
  let teardowns = 0;
  const srv = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const url = new URL(req.url);
    const status = url.pathname.match(/^\/status\/(\d{3})$/);
    if (status) return new Response(`status ${status[1]}`, { status: Number(status[1]) });
    if (url.pathname === "/teardown") teardowns++;
    if (url.pathname === "/cookie") {
      return new Response("set", { headers: { "set-cookie": "c=1; Path=/" } });
    }
    if (url.pathname === "/slow") await new Promise((r) => setTimeout(r, 1500));
    if (url.pathname === "/big") return Response.json({ data: "x".repeat(4096) });
    return Response.json({
      note: req.headers.get("x-note"),
      token_length: req.headers.get("x-token")?.length ?? 0,
      cookie: req.headers.get("cookie") ?? "none",
      has_trace: req.headers.has("traceparent"),
    });
  });
  return {
    base: `http://127.0.0.1:${srv.addr.port}`,
    teardowns: () => teardowns,
    close: () => srv.shutdown(),
  };
}

/** A one-step flow that sends `request` (YAML flow map entries) and checks `check`. */
function flow(name: string, request: string, check: string, extra = ""): string {
  return `name: ${name}\n${extra}steps:\n  - name: call\n    request: {${request}}\n    assert: ${check}\n`;
}

/**
 * The console's block for the flow of `file`: its failing steps, messages,
 * source lines, curl command and reproduce line, timings left out.
 */
function block(run: CliRun, file: string): string {
  return failedBlock(run, file)
    // Trace and span ids are new in every run.
    .replace(/\b[0-9a-f]{32}\b|\b[0-9a-f]{16}\b/g, "ID");
}

interface Case {
  /** Files to write in the working directory. */
  files: Record<string, string>;
  /** The arguments of the first run (after `run`). */
  args: string[];
  /** Environment of both runs. */
  env?: Record<string, string>;
  /** The file whose failure is reproduced (its line is taken). */
  file?: string;
}

/**
 * Runs the case, then its printed reproduce line; both fail alike. Gives
 * both runs and the line.
 */
async function reproduces(c: Case): Promise<{ first: CliRun; again: CliRun; line: string }> {
  const file = c.file ?? Object.keys(c.files).find((f) => f.startsWith("flow"))!;
  const pick = (l: string) => l.includes(` run ${file} `);
  const rerun = await rerunsAlike({ ...c, file, pick, block });
  assert.deepEqual(
    reproduceLines(rerun.again),
    [rerun.line],
    "the rerun prints the same line again",
  );
  return rerun;
}

Deno.test("reproduce: --setup, whose outputs the flow reads, is carried", async () => {
  const srv = server();
  try {
    const { line } = await reproduces({
      files: {
        "setup.yaml": `${flow("setup", `url: "${srv.base}/status/200"`, "{status: 200}")}` +
          `outputs: {code: "418"}\n`,
        "flow.yaml": flow("f", `url: "${srv.base}/status/\${setup.code}"`, "{status: 200}"),
      },
      args: ["flow.yaml", "--setup", "setup.yaml"],
    });
    assert.match(line, / --setup setup\.yaml/);
  } finally {
    await srv.close();
  }
});

Deno.test("reproduce: --teardown is carried and runs again", async () => {
  const srv = server();
  try {
    const { line } = await reproduces({
      files: {
        "down.yaml": flow("down", `url: "${srv.base}/teardown"`, "{status: 200}"),
        "flow.yaml": flow("f", `url: "${srv.base}/status/500"`, "{status: 200}"),
      },
      args: ["flow.yaml", "--teardown", "down.yaml"],
    });
    assert.match(line, / --teardown down\.yaml/);
    assert.equal(srv.teardowns(), 2);
  } finally {
    await srv.close();
  }
});

Deno.test("reproduce: --vars-file, --env-file and --var with shell characters are carried", async () => {
  const srv = server();
  try {
    const { line } = await reproduces({
      files: {
        "vars.yaml": "code: 404\n",
        ".env": "PART=status\n",
        "flow.yaml": flow(
          "f",
          `url: "${srv.base}/\${ENV.PART}/\${code}", headers: {x-note: "\${note}"}`,
          "{status: 200}",
          "vars: {code: '200'}\n",
        ),
      },
      args: [
        "flow.yaml",
        "--vars-file",
        "vars.yaml",
        "--env-file",
        ".env",
        "--var",
        "note=it's $HOME `x`",
      ],
    });
    assert.match(line, / --vars-file vars\.yaml --env-file \.env/);
    const echo = await reproduces({
      files: {
        "flow.yaml": flow(
          "f",
          `url: "${srv.base}/echo", headers: {x-note: "\${note}"}`,
          "{json: [{path: $.json.note, equals: other}]}",
        ),
      },
      args: ["flow.yaml", "--var", 'note=it\'s $HOME `x` "q"'],
    });
    assert.match(block(echo.first, "flow.yaml"), /it's \$HOME `x` \\?"q/);
  } finally {
    await srv.close();
  }
});

Deno.test("reproduce: values that start with - are given as --name=value", async () => {
  const srv = server();
  try {
    const { line } = await reproduces({
      files: {
        "-vars.yaml": "code: 404\n",
        "flow.yaml": flow(
          "f",
          `url: "${srv.base}/status/\${code}"`,
          "{status: 200}",
          "vars: {code: '200'}\n",
        ),
      },
      args: ["flow.yaml", "--vars-file=-vars.yaml", "--run-id=-r1"],
    });
    assert.match(line, / --run-id=-r1 --vars-file=-vars\.yaml/);
  } finally {
    await srv.close();
  }
});

Deno.test("reproduce: a secret --var is an environment reference, never its value", async () => {
  const srv = server();
  const check = "{json: [{path: $.json.token_length, equals: 3}]}";
  try {
    const { first, line } = await reproduces({
      files: {
        "flow.yaml": flow(
          "f",
          `url: "${srv.base}/echo", headers: {x-token: "\${api_token}"}`,
          check,
        ),
      },
      args: ["flow.yaml", "--var", "api_token=s3cr3t-v4lue"],
      env: { API_TOKEN: "s3cr3t-v4lue" },
    });
    assert.match(line, / --var api_token="\$API_TOKEN"/);
    assert.ok(!first.stdout.includes("s3cr3t-v4lue"));
    const named = await reproduces({
      files: {
        "flow.yaml": flow(
          "f",
          `url: "${srv.base}/echo", headers: {x-token: "\${ENV.MY_KEY}"}`,
          check,
        ),
      },
      args: ["flow.yaml", "--secret", "MY_KEY"],
      env: { MY_KEY: "plainv4lue9" },
    });
    assert.match(named.line, / --secret MY_KEY/);
    assert.ok(!named.first.stdout.includes("plainv4lue9"));
  } finally {
    await srv.close();
  }
});

Deno.test("reproduce: --tag (step tags) and --filter are carried; the shard is the file itself", async () => {
  const srv = server();
  const tagged = `name: f\nsteps:\n` +
    `  - name: untagged\n    request: {url: "${srv.base}/status/500"}\n    assert: {status: 200}\n` +
    `  - name: smoke\n    tags: [smoke]\n    request: {url: "${srv.base}/status/404"}\n    assert: {status: 200}\n`;
  try {
    const tag = await reproduces({ files: { "flow.yaml": tagged }, args: [".", "--tag", "smoke"] });
    assert.match(tag.line, / --tag smoke/);
    assert.match(block(tag.first, "flow.yaml"), /✘ smoke /);
    const files = {
      "flow_a.yaml": flow("a", `url: "${srv.base}/status/500"`, "{status: 200}"),
      "flow_b.yaml": flow("b", `url: "${srv.base}/status/404"`, "{status: 200}"),
    };
    const filter = await reproduces({
      files,
      args: [".", "--filter", "flow_b"],
      file: "flow_b.yaml",
    });
    assert.match(filter.line, / --filter flow_b/);
    const shard = await reproduces({ files, args: [".", "--shard", "2/2"], file: "flow_b.yaml" });
    assert.doesNotMatch(shard.line, /--shard/);
  } finally {
    await srv.close();
  }
});

Deno.test("reproduce: --cookie-jar, --trace, --timeout, --max-body and --max-body-memory are carried", async () => {
  const srv = server();
  try {
    const jar = await reproduces({
      files: {
        "flow.yaml": `name: f\nsteps:\n  - name: set\n    request: {url: "${srv.base}/cookie"}\n` +
          `  - name: read\n    request: {url: "${srv.base}/echo"}\n` +
          `    assert: {json: [{path: $.json.cookie, equals: none}]}\n`,
      },
      args: ["flow.yaml", "--cookie-jar"],
    });
    assert.match(jar.line, / --cookie-jar/);
    const trace = await reproduces({
      files: {
        "flow.yaml": flow(
          "f",
          `url: "${srv.base}/echo"`,
          "{json: [{path: $.json.has_trace, equals: false}]}",
        ),
      },
      args: ["flow.yaml", "--trace"],
    });
    assert.match(trace.line, / --trace/);
    const timeout = await reproduces({
      files: { "flow.yaml": flow("f", `url: "${srv.base}/slow"`, "{status: 200}") },
      args: ["flow.yaml", "--timeout", "200ms"],
    });
    assert.match(timeout.line, / --timeout 200/);
    const body = await reproduces({
      files: { "flow.yaml": flow("f", `url: "${srv.base}/big"`, "{status: 200}") },
      args: ["flow.yaml", "--max-body", "1KiB"],
    });
    assert.match(body.line, / --max-body 1KiB/);
    const memory = await reproduces({
      files: {
        "flow.yaml": flow(
          "f",
          `url: "${srv.base}/big"`,
          "{json: [{path: $.json.data, equals: nope}]}",
        ),
      },
      args: ["flow.yaml", "--max-body-memory", "1KiB"],
    });
    assert.match(memory.line, / --max-body-memory 1KiB/);
  } finally {
    await srv.close();
  }
});

Deno.test("reproduce: --proxy and --no-proxy are carried", async () => {
  const srv = server();
  const proxy = forwardProxy();
  try {
    const via = await reproduces({
      files: { "flow.yaml": flow("f", `url: "${srv.base}/status/404"`, "{status: 200}") },
      args: ["flow.yaml", "--proxy", proxy.url],
    });
    assert.match(via.line, / --proxy http:\/\/127\.0\.0\.1:\d+/);
    assert.equal(proxy.seen.length, 2, "both runs went through the proxy");
    // A proxy nobody listens on: only --no-proxy lets the request through.
    const around = await reproduces({
      files: { "flow.yaml": flow("f", `url: "${srv.base}/status/404"`, "{status: 200}") },
      args: ["flow.yaml", "--proxy", "http://127.0.0.1:9", "--no-proxy", "127.0.0.1"],
    });
    assert.match(around.line, / --no-proxy 127\.0\.0\.1/);
  } finally {
    proxy.close();
    await srv.close();
  }
});

Deno.test({
  name: "reproduce: --cacert, --cert/--key and --insecure are carried",
  ignore: !hasOpenssl(),
  async fn() {
    const certs = await Deno.makeTempDir({ prefix: "flowrun-reproduce-certs-" });
    const pem = await makeCertificates(certs);
    const srv = httpsServe(pem, () => new Response("tls", { status: 404 }));
    const request = `url: "https://127.0.0.1:${srv.addr.port}/"`;
    try {
      const trusted = await reproduces({
        files: { "flow.yaml": flow("f", request, "{status: 200}") },
        args: [
          "flow.yaml",
          "--cacert",
          `${certs}/ca.pem`,
          "--cert",
          `${certs}/client.pem`,
          "--key",
          `${certs}/client.key`,
        ],
      });
      assert.match(trusted.line, / --cacert \S+ca\.pem --cert \S+client\.pem --key \S+client\.key/);
      const insecure = await reproduces({
        files: { "flow.yaml": flow("f", request, "{status: 200}") },
        args: ["flow.yaml", "--insecure"],
      });
      assert.match(insecure.line, / --insecure/);
    } finally {
      await srv.shutdown();
      await Deno.remove(certs, { recursive: true });
    }
  },
});
