/**
 * `flowrun send`: one request from the command line, shown as `run -vv`
 * shows an exchange. The CLI runs as a subprocess against a server this
 * file starts; what arrives there is compared byte for byte, and the flow
 * `--flow` prints is run with `flowrun run` to send the same bytes again.
 */
import assert from "node:assert/strict";
import { type CliRun, runCli } from "../support/cli.ts";
import { hasOpenssl, makeCertificates } from "../support/tls.ts";
import { httpsServe } from "../support/tls_servers.ts";

/** One request as the server saw it. */
interface Arrived {
  method: string;
  path: string;
  headers: [string, string][];
  body: string;
}

/** A server that records what arrives and answers by path. */
function server() {
  const arrived: Arrived[] = [];
  const srv = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const url = new URL(req.url);
    const body = new TextDecoder().decode(await req.arrayBuffer());
    arrived.push({
      method: req.method,
      path: url.pathname + url.search,
      headers: [...req.headers],
      body,
    });
    if (url.pathname === "/missing") {
      return Response.json({ error: "no such item" }, { status: 404 });
    }
    if (url.pathname === "/png") {
      const bytes = new Uint8Array(2048).map((_, i) => (i * 37) % 256);
      return new Response(bytes, { headers: { "content-type": "image/png" } });
    }
    if (url.pathname === "/big") return new Response("line of text\n".repeat(100_000));
    if (url.pathname === "/moved") return Response.redirect(`${url.origin}/echo`, 302);
    // Everything that came in goes back: in the body and in a header.
    return Response.json(
      {
        method: req.method,
        auth: req.headers.get("authorization"),
        note: req.headers.get("x-note"),
        body,
        about: "a response long enough to be printed one key per line",
      },
      {
        status: 201,
        headers: {
          "x-echo": req.headers.get("x-note") ?? "",
          "set-cookie": "sid=c00kie-value-77; Path=/",
        },
      },
    );
  });
  return {
    base: `http://127.0.0.1:${srv.addr.port}`,
    arrived,
    /** The requests that arrived at `path`. */
    at: (path: string) => arrived.filter((a) => a.path === path),
    close: () => srv.shutdown(),
  };
}

/** A directory of its own for a test's files, removed after. */
async function inTempDir<T>(fn: (dir: string) => Promise<T>): Promise<T> {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-send-" });
  try {
    return await fn(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

const header = (a: Arrived, name: string) => a.headers.find(([n]) => n === name)?.[1];

Deno.test("send: -d, --data @file, --json and --form send these bytes, POST by default", async () => {
  const srv = server();
  try {
    await inTempDir(async (dir) => {
      const file = "payload.txt";
      await Deno.writeTextFile(`${dir}/${file}`, "first line\nsecond ünïcode line\n");
      const runs = await Promise.all([
        runCli(["send", `${srv.base}/data`, "-d", "a=1", "-d", "b=two words"], { cwd: dir }),
        runCli(["send", "PUT", `${srv.base}/file`, "--data", `@${file}`], { cwd: dir }),
        runCli(["send", `${srv.base}/json`, "--json", '{"name": "box", "n": [1, 2]}'], {
          cwd: dir,
        }),
        runCli([
          "send",
          `${srv.base}/form`,
          "--form",
          "q=a b&c",
          "--form",
          "tag=x",
          "--form",
          "tag=y",
        ], {
          cwd: dir,
        }),
        runCli([
          "send",
          "patch",
          `${srv.base}/plain`,
          "-H",
          "content-type: text/plain",
          "-d",
          "hi\nthere",
        ], {
          cwd: dir,
        }),
        runCli(["send", `${srv.base}/get?x=1`, "-H", "Accept: text/html", "-H", "X-Empty:"], {
          cwd: dir,
        }),
      ]);
      for (const run of runs) assert.equal(run.code, 0, run.stderr);
      const [data] = srv.at("/data");
      assert.equal(data.method, "POST");
      assert.equal(data.body, "a=1&b=two words");
      assert.equal(header(data, "content-type"), "application/x-www-form-urlencoded");
      const [put] = srv.at("/file");
      assert.equal(put.method, "PUT");
      assert.equal(put.body, "first line\nsecond ünïcode line\n");
      const [json] = srv.at("/json");
      assert.equal(json.body, '{"name": "box", "n": [1, 2]}', "sent as typed, not re-serialised");
      assert.equal(header(json, "content-type"), "application/json");
      assert.equal(header(json, "accept"), "application/json");
      const [form] = srv.at("/form");
      assert.equal(form.body, "q=a+b%26c&tag=x&tag=y");
      assert.equal(header(form, "content-type"), "application/x-www-form-urlencoded");
      const [plain] = srv.at("/plain");
      assert.equal(plain.method, "PATCH");
      assert.equal(plain.body, "hi\nthere");
      assert.equal(header(plain, "content-type"), "text/plain", "-H wins over -d's default");
      const [get] = srv.at("/get?x=1");
      assert.equal(get.method, "GET");
      assert.equal(get.body, "");
      assert.equal(header(get, "accept"), "text/html");
      assert.equal(header(get, "x-empty"), "");
    });
  } finally {
    await srv.close();
  }
});

Deno.test("send prints the request, the status, both headers and the body, JSON pretty-printed", async () => {
  const srv = server();
  try {
    const run = await runCli([
      "send",
      "POST",
      `${srv.base}/echo`,
      "-H",
      "X-Note: hello",
      "--json",
      '{"a":1}',
    ]);
    assert.equal(run.code, 0, run.stderr);
    assert.equal(run.stderr, "");
    const lines = run.stdout.split("\n");
    assert.equal(lines[0], `POST ${srv.base}/echo → 201`);
    assert.ok(lines.includes("> X-Note: hello"), run.stdout);
    assert.ok(lines.includes("> content-type: application/json"), run.stdout);
    assert.ok(lines.includes("request body:") && lines.includes('  {"a":1}'), run.stdout);
    assert.ok(lines.includes("< content-type: application/json"), run.stdout);
    assert.ok(lines.includes("< x-echo: hello"), run.stdout);
    assert.ok(lines.includes("response body (application/json):"), run.stdout);
    assert.ok(lines.includes('    "method": "POST",'), `pretty JSON:\n${run.stdout}`);
    // No run around it: no flow heading, no summary.
    assert.doesNotMatch(run.stdout, /flowrun \d|1 flow|passed/);
  } finally {
    await srv.close();
  }
});

Deno.test("send masks an Authorization header, a cookie and an ENV secret in every part of the output", async () => {
  const srv = server();
  const token = "tok-5ecret-value-91";
  const bearer = "literal-bearer-c0de-42";
  try {
    await inTempDir(async (dir) => {
      const run = await runCli([
        "send",
        `${srv.base}/echo`,
        "-H",
        `Authorization: Bearer ${bearer}`,
        // A header whose name says nothing: the value is secret because the variable's name is.
        "-H",
        "X-Note: ${ENV.API_TOKEN}",
        "--json",
        '{"token": "${ENV.API_TOKEN}", "user": "ann"}',
        "--flow",
      ], { env: { API_TOKEN: token }, cwd: dir });
      assert.equal(run.code, 0, run.stderr);
      const [arrived] = srv.at("/echo");
      assert.equal(header(arrived, "authorization"), `Bearer ${bearer}`);
      assert.equal(header(arrived, "x-note"), token);
      assert.equal(arrived.body, `{"token": "${token}", "user": "ann"}`);
      const all = run.stdout + run.stderr;
      for (const secret of [token, bearer, "c00kie-value-77"]) {
        assert.ok(!all.includes(secret), `${secret} is masked:\n${all}`);
      }
      // Every part: request headers and body, response headers and body (with --flow on stderr).
      assert.match(run.stderr, /^> Authorization: \*\*\*$/m);
      assert.match(run.stderr, /^> X-Note: \*\*\*$/m);
      assert.match(run.stderr, /^ {2}\{"token":"\*\*\*","user":"ann"\}$/m);
      assert.match(run.stderr, /^< x-echo: \*\*\*$/m);
      assert.match(run.stderr, /^< set-cookie: \*\*\*$/m);
      assert.match(run.stderr, /"note": "\*\*\*"/);
      // The flow keeps the expression, which is no secret; the literal one is masked there too.
      assert.match(run.stdout, /X-Note: \$\{ENV\.API_TOKEN\}/);
      assert.match(run.stdout, /Authorization: \*\*\*/);
      assert.match(run.stderr, /^note: a secret written on the command line is masked/m);
    });
  } finally {
    await srv.close();
  }
});

Deno.test("send reads --env-file and masks its secret-named values and --secret ones", async () => {
  const srv = server();
  try {
    await inTempDir(async (dir) => {
      await Deno.writeTextFile(
        `${dir}/.env`,
        "API_KEY=envfile-s3cret-123\nCOLOUR=plain-value-456\n",
      );
      const run = await runCli([
        "send",
        `${srv.base}/echo`,
        "-H",
        "X-Note: ${ENV.API_KEY}",
        "-d",
        "colour=${ENV.COLOUR}",
        "--env-file",
        ".env",
        "--secret",
        "COLOUR",
      ], { cwd: dir });
      assert.equal(run.code, 0, run.stderr);
      const [arrived] = srv.at("/echo");
      assert.equal(header(arrived, "x-note"), "envfile-s3cret-123");
      assert.equal(arrived.body, "colour=plain-value-456");
      for (const secret of ["envfile-s3cret-123", "plain-value-456"]) {
        assert.ok(!run.stdout.includes(secret), `${secret} is masked:\n${run.stdout}`);
      }
      assert.match(run.stdout, /^ {2}colour=\*\*\*$/m);
    });
  } finally {
    await srv.close();
  }
});

Deno.test("send --flow prints a flow that flowrun run sends with the same bytes", async () => {
  const srv = server();
  try {
    await inTempDir(async (dir) => {
      await Deno.writeTextFile(`${dir}/body.json`, '{\n  "from": "file"\n}\n');
      const cases: string[][] = [
        ["-d", "line one\nline 'two' ${ENV.NOTE} $${literal}\n", "-H", "X-Note: ${ENV.NOTE}"],
        ["-X", "PUT", "--json", '{"n": 1.50, "s": "a: b # c"}', "-H", "Accept: */*"],
        ["--form", "q=a b", "--form", "q=ü", "--form", "empty="],
        ["-X", "DELETE", "-H", 'If-Match: "v1"'],
        ["--json", "@body.json"],
        ["-L"],
      ];
      for (const [i, extra] of cases.entries()) {
        const path = i === cases.length - 1 ? "/moved" : `/case-${i}?x=${i}`;
        const env = { NOTE: "a note" };
        const sent = await runCli(["send", `${srv.base}${path}`, ...extra, "--flow"], {
          cwd: dir,
          env,
        });
        assert.equal(sent.code, 0, sent.stderr);
        await Deno.writeTextFile(`${dir}/flow.yaml`, sent.stdout);
        const before = srv.arrived.length;
        const ran = await runCli(["run", "flow.yaml"], { cwd: dir, env });
        assert.equal(ran.code, 0, `${extra.join(" ")}\n${sent.stdout}\n${ran.stdout}${ran.stderr}`);
        const sentNow = srv.arrived.slice(before - (path === "/moved" ? 2 : 1), before);
        const ranNow = srv.arrived.slice(before);
        assert.deepEqual(ranNow, sentNow, `${extra.join(" ")}: the flow sends the same bytes`);
        assert.equal(ranNow.length, path === "/moved" ? 2 : 1, "the redirect is followed in both");
      }
      const [first] = srv.at("/case-0?x=0");
      assert.equal(first.body, "line one\nline 'two' a note ${literal}\n");
    });
  } finally {
    await srv.close();
  }
});

Deno.test("send: any status exits 0; --fail exits 1 from 400 on; no response exits 1 with the reason", async () => {
  const srv = server();
  const closed = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (closed.addr as Deno.NetAddr).port;
  closed.close();
  try {
    const [missing, failing, passing, refused, capped, unmade] = await Promise.all([
      runCli(["send", `${srv.base}/missing`]),
      runCli(["send", `${srv.base}/missing`, "--fail"]),
      runCli(["send", `${srv.base}/echo`, "--fail"]),
      runCli(["send", `http://127.0.0.1:${port}/x`, "--timeout", "5s"]),
      runCli(["send", `${srv.base}/big`, "--max-body", "64KiB"]),
      // A URL that only its value makes wrong is found when it is made, as in a run.
      runCli(["send", "${ENV.FLOWRUN_SEND_BASE}/x"], { env: { FLOWRUN_SEND_BASE: "nohost" } }),
    ]);
    assert.equal(missing.code, 0, missing.stderr);
    assert.match(missing.stdout, /^GET http:\/\/127\.0\.0\.1:\d+\/missing → 404$/m);
    assert.match(missing.stdout, /^ {2}\{"error":"no such item"\}$/m);
    assert.equal(failing.code, 1);
    assert.match(failing.stdout, /→ 404/);
    assert.match(failing.stderr, /404.*--fail/);
    assert.equal(passing.code, 0, passing.stderr);
    assert.equal(refused.code, 1, refused.stderr);
    assert.match(refused.stdout, new RegExp(`^GET http://127\\.0\\.0\\.1:${port}/x$`, "m"));
    assert.match(refused.stderr, /^Request failed: connection refused\.$/m);
    assert.doesNotMatch(refused.stderr, /internal error|\n\s+at /);
    assert.equal(capped.code, 1, capped.stderr);
    assert.match(
      capped.stderr,
      /^The response body is larger than 64 KiB \(the cap\); raise it with --max-body/m,
    );
    assert.equal(unmade.code, 1, unmade.stderr);
    assert.equal(unmade.stdout, "");
    assert.equal(
      unmade.stderr,
      '"nohost/x" is not an absolute http or https URL: it has no scheme; give the value it starts with one, e.g. "http://nohost".\n',
    );
  } finally {
    await srv.close();
  }
});

Deno.test("send summarises a binary body and cuts a long one with a note", async () => {
  const srv = server();
  try {
    const [png, big] = await Promise.all([
      runCli(["send", `${srv.base}/png`]),
      runCli(["send", `${srv.base}/big`]),
    ]);
    assert.equal(png.code, 0, png.stderr);
    assert.match(
      png.stdout,
      /^response body \(image\/png\):\n {2}\(binary, 2048 bytes: not shown\)$/m,
    );
    assert.ok(!png.stdout.includes("\ufffd"), "no undecodable bytes on the terminal");
    assert.equal(big.code, 0, big.stderr);
    const lines = big.stdout.trimEnd().split("\n");
    assert.match(lines.at(-1)!, /^… 251,424 more characters not shown \(the first 1 MiB is\)\.$/);
    assert.ok(big.stdout.length < 1.25 * 1024 * 1024, `${big.stdout.length} characters printed`);
  } finally {
    await srv.close();
  }
});

Deno.test({
  name: "send takes run's TLS options: --cacert, --insecure; the flow's comment carries them",
  ignore: !hasOpenssl(),
  async fn() {
    await inTempDir(async (dir) => {
      const pem = await makeCertificates(dir);
      const srv = httpsServe(pem, () => new Response("over tls"));
      const url = `https://127.0.0.1:${srv.addr.port}/`;
      try {
        const [untrusted, trusted, insecure] = await Promise.all([
          runCli(["send", url]),
          runCli(["send", url, "--cacert", "ca.pem", "--flow"], { cwd: dir }),
          runCli(["send", url, "--insecure"]),
        ]);
        assert.equal(untrusted.code, 1, untrusted.stderr);
        assert.match(untrusted.stderr, /^Request failed: .*certificate/m);
        assert.equal(trusted.code, 0, trusted.stderr);
        assert.match(trusted.stderr, /→ 200\n[^]*\n {2}over tls\n/);
        assert.match(trusted.stdout, /^# {3}flowrun run FILE --cacert=ca\.pem$/m);
        await Deno.writeTextFile(`${dir}/tls.yaml`, trusted.stdout);
        const ran = await runCli(["run", "tls.yaml", "--cacert=ca.pem"], { cwd: dir });
        assert.equal(ran.code, 0, ran.stdout + ran.stderr);
        assert.equal(insecure.code, 0, insecure.stderr);
        assert.match(insecure.stderr, /^warning\[insecure\]: --insecure is on/m);
        assert.match(insecure.stdout, /^ {2}over tls$/m);
      } finally {
        await srv.shutdown();
      }
    });
  },
});

/** A run that refused its arguments: exit 2, one message, nothing sent. */
function refusedWith(run: CliRun, pattern: RegExp) {
  assert.equal(run.code, 2, run.stdout + run.stderr);
  assert.match(run.stderr, pattern);
  assert.doesNotMatch(run.stderr, /internal error|\n\s+at /);
}

Deno.test("send refuses a bad option, URL, header, body or expression with one message, sending nothing", async () => {
  const srv = server();
  try {
    await inTempDir(async (dir) => {
      const url = `${srv.base}/x`;
      const cases: [string[], RegExp][] = [
        [[], /error\[bad-url\]: No URL given\.\n {2}hint: Usage: flowrun send \[METHOD\] URL/],
        [
          ["localhost:8080/items"],
          /"localhost:8080\/items" is not an absolute http or https URL[^]*http:\/\/localhost:8080\/items/,
        ],
        [["GET", url, "extra"], /error\[bad-option\]: Expected \[METHOD\] URL, got 3 arguments/],
        [["GE T", url], /"GE T" is not an HTTP method/],
        [["TRACE", url], /"TRACE" requests cannot be sent/],
        [["-X", "PUT", "POST", url], /error\[bad-method\]: The method is given twice/],
        [
          [url, "-H", "X-Note hello"],
          /error\[bad-header\]: Expected -H "Name: value", got "X-Note hello"/,
        ],
        [[url, "-H", "Bad Name: x"], /"Bad Name" is not a valid header name/],
        [
          [url, "-H", "A: 1", "-H", "a: 2"],
          /error\[duplicate-header\]: The header "a" is given twice/,
        ],
        [
          [url, "-d", "x", "--json", "{}"],
          /error\[conflicting-keys\]: -d and --json both give the request a body/,
        ],
        [["GET", url, "-d", "x"], /A GET request cannot have a body/],
        [[url, "--json", "{nope"], /error\[bad-json\]: --json is not JSON/],
        [
          [url, "--json", "{}", "--json", "[]"],
          /error\[conflicting-keys\]: --json is given 2 times/,
        ],
        [
          [url, "-d", "a", "-d", "@f.txt"],
          /error\[conflicting-keys\]: -d is given 2 times, once with a file \("@f\.txt"\)/,
        ],
        [
          [url, "--form", "novalue"],
          /error\[bad-option\]: Expected --form NAME=VALUE, got "novalue"/,
        ],
        [[url, "-d", "@missing.txt"], /missing\.txt/],
        [
          [url, "--timeout", "soon"],
          /error\[bad-timeout\]: Expected --timeout to be a positive duration/,
        ],
        [[url, "--cert", "c.pem"], /error\[bad-cert\]: --cert needs --key/],
        [[url, "--colour"], /error\[bad-option\]: Unknown option "--colour"[^]*--color/],
        [
          [url, "-H", "X-Note: ${ENV.FLOWRUN_SEND_UNSET}"],
          /error\[unset-env\]: Environment variable "FLOWRUN_SEND_UNSET" is not set[^]*X-Note: \$\{ENV\.FLOWRUN_SEND_UNSET\}[^]*\^[^]*nothing was sent/,
        ],
        [[url, "-d", "${steps.x.id}"], /error\[[a-z-]+\]:[^]*steps\.x/],
      ];
      const runs = await Promise.all(
        cases.map(([args]) => runCli(["send", ...args], { cwd: dir })),
      );
      for (const [i, run] of runs.entries()) refusedWith(run, cases[i][1]);
      assert.equal(srv.arrived.length, 0, "nothing was sent");
    });
  } finally {
    await srv.close();
  }
});

Deno.test("send --help prints its usage, options and an example", async () => {
  const [help, via] = await Promise.all([runCli(["send", "--help"]), runCli(["help", "send"])]);
  assert.equal(help.code, 0);
  assert.equal(via.stdout, help.stdout);
  assert.ok(help.stdout.startsWith("Usage: flowrun send [METHOD] URL [options]\n"), help.stdout);
  for (
    const option of [
      "-H, --header",
      "-d, --data",
      "--json",
      "--form",
      "--flow",
      "--fail",
      "-L, --follow",
    ]
  ) {
    assert.ok(help.stdout.includes(`  ${option}`), `${option}:\n${help.stdout}`);
  }
  assert.match(help.stdout, /\nExamples:\n {2}flowrun send /);
});

Deno.test("flowrun run's module graph holds none of send's modules", async () => {
  const { runModules } = await import("../../scripts/run_graph.ts");
  const modules = await runModules();
  assert.ok(modules.includes("lib/run/flows.ts"));
  const send = modules.filter((m) => m === "cli/send.ts" || m.startsWith("cli/send/"));
  assert.deepEqual(send, []);
});
