/**
 * The `curl` line of a failed step sends what flowrun sent. A local server
 * records every request it gets (method, path and query, headers, body
 * bytes); a run whose steps all fail prints a curl line per step; each line,
 * as the console prints it (which is what a person copies), runs in `sh -c`
 * with the real curl, and what arrives is compared with what flowrun sent:
 * method, path and query and body bytes equal (a multipart body: the same
 * parts, since each sender picks its own boundary), and every header flowrun
 * sent arrives with the same value. Headers the runtime or curl add of their
 * own (`user-agent`, `accept`, `accept-encoding`, `accept-language`,
 * `content-length`, `host`)
 * may differ, so flowrun's are compared as a subset, plus the content type,
 * which decides how the server reads the body.
 */
import assert from "node:assert/strict";
import { runCli } from "../support/cli.ts";
import { formParts } from "../support/form_parts.ts";

const CURL = "/usr/bin/curl";
/** A secret the flows read from the environment, with what printf and a shell would read. */
const TOKEN = "t0k%s'\\n$x";
const hasCurl = (() => {
  try {
    return Deno.statSync(CURL).isFile;
  } catch {
    return false;
  }
})();

/** A request as the server got it. */
interface Seen {
  method: string;
  path: string;
  headers: Map<string, string>;
  body: Uint8Array<ArrayBuffer>;
}

/** Headers the runtime or curl add by themselves, which the comparison leaves out. */
const OWN = new Set([
  "user-agent",
  "accept",
  "accept-encoding",
  "accept-language",
  "content-length",
  "host",
]);

/**
 * One flow file per case, each a single step that fails (the server answers
 * 200, the step wants 299), so each prints its curl line.
 */
const CASES: Record<string, string> = {
  // The case: a YAML block scalar, sent with its newlines (and a tab, quotes, `$`).
  "block-text": `    method: POST
    headers: {content-type: text/plain}
    body: |
      line one 'single' "double" $HOME \\n %s %%
      \tline two after a tab
`,
  // No content type written: the runtime sends text/plain;charset=UTF-8, so must curl.
  "text-no-type": `    method: PUT
    body: "crlf\\r\\nünïcödé ✓ 🔑 and a bidi \\u202e and an escape \\e[31m end"
`,
  "json-unicode": `    method: POST
    body: {name: "pässwörd ✓ 🔑", note: "a\\nb", quote: "it's"}
`,
  // A secret inside a body printf writes: spliced as "$API_TOKEN", its `%` and `\\` left as they are.
  "secret-lines": `    method: POST
    headers: {content-type: text/plain}
    body: "token:\\n\${ENV.API_TOKEN}\\n100%"
`,
  "form": `    method: POST
    form: {q: "a b&c=d", list: [1, "x y"], "na me": "é"}
`,
  "multipart": `    method: POST
    multipart:
      field: "value with 'quotes' and ü"
      lines: "one\\ntwo"
      upload: {file: upload.txt, content_type: text/plain}
      blob: {file: blob.bin, filename: "b'l ob.bin"}
`,
  "body-file": `    method: POST
    body_file: blob.bin
`,
  "empty-body": `    method: POST
    body: ""
`,
  "head": `    method: HEAD
`,
  "delete": `    method: DELETE
    headers: {x-reason: "it's \\"gone\\" $(nothing)", x-empty: ""}
    cookies: {sid: "s d;e", theme: dark}
`,
  "query": `    method: GET
    query: {q: "a b&c=d", tag: ["x y", "z"], e: "é/?#"}
`,
  "brackets": `    method: GET
    query: {"filter[name]": "x", "page{1}": "2"}
`,
  // Written into the URL itself: brackets and braces curl would read as a pattern, a tab the URL
  // parser drops.
  "raw-url": `    method: GET
    url+: "&filter[a]={1}&t=a\\tb"
`,
};

/** Bytes of a file a flow sends: every byte value curl cannot take in an argument (NUL) and more. */
const BLOB = new Uint8Array([0, 1, 2, 0x0a, 0x0d, 0x25, 0x5c, 0x27, 0x7f, 0x80, 0xff, 0xfe, 0x41]);

function flowFile(name: string, spec: string, base: string): string {
  // The URL is the case's own path on the server, then a `url+:` line's text if the case has one.
  const request = spec.replace(
    /^ {4}method: (\S+)\n(?: {4}url\+: "(.*)"\n)?/,
    (_, m, tail = "") => `    method: ${m}\n    url: "${base}/case/${name}?fixed=a%20b${tail}"\n`,
  );
  return `name: ${name}\nsteps:\n  - name: ${name}\n    request:\n${
    request.replace(/^ {4}/gm, "      ")
  }    assert: {status: 299}\n`;
}

/** Every string inside a parsed JSON value. */
function strings(value: unknown, out: string[] = []): string[] {
  if (typeof value === "string") out.push(value);
  else if (Array.isArray(value)) { for (const v of value) strings(v, out); }
  else if (value && typeof value === "object") {
    for (const v of Object.values(value)) strings(v, out);
  }
  return out;
}

/** The parts of a multipart body, for a comparison that does not depend on the boundary. */
async function parts(seen: Seen): Promise<unknown[]> {
  return await formParts(
    new Request("http://x.test/", {
      method: "POST",
      headers: { "content-type": seen.headers.get("content-type")! },
      body: seen.body,
    }),
  );
}

async function compare(name: string, sent: Seen, got: Seen, line: string): Promise<void> {
  const why = `case ${name}: ${line}`;
  assert.equal(got.method, sent.method, why);
  assert.equal(got.path, sent.path, why);
  for (const [header, value] of sent.headers) {
    if (OWN.has(header)) continue;
    // Each sender picks its own multipart boundary; the parts are compared below.
    if (value.startsWith("multipart/form-data; boundary=")) {
      assert.match(got.headers.get(header) ?? "", /^multipart\/form-data; boundary=/, why);
      continue;
    }
    // A secret is masked in the line as in every report (cookies are secrets, their names the
    // server's words): it arrives as the line holds it, masked.
    const masked = line.split(`'${header}: `)[1]?.split("'")[0];
    if (header === "cookie") assert.doesNotMatch(masked ?? "", /s%20d|dark/, why);
    if (masked?.includes("***")) {
      assert.equal(got.headers.get(header), masked, `${why}\nheader ${header}`);
      continue;
    }
    assert.equal(got.headers.get(header), value, `${why}\nheader ${header}`);
  }
  if (sent.headers.get("content-type")?.startsWith("multipart/")) {
    assert.deepEqual(await parts(got), await parts(sent), why);
  } else {
    assert.deepEqual([...got.body], [...sent.body], why);
  }
}

/**
 * Runs one flow per case in one CLI run, then each printed curl line (when
 * `run` is true) with curl; gives the lines and what each case got wrong.
 */
async function runCases(
  cases: Record<string, string>,
  args: string[] | ((server: string) => string[]),
  { run = true, host }: { run?: boolean; host?: string } = {},
): Promise<{ lines: Map<string, string>; wrong: string[] }> {
  const seen: Seen[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const url = new URL(req.url);
    seen.push({
      method: req.method,
      path: url.pathname + url.search,
      headers: new Map(req.headers),
      body: new Uint8Array(await req.arrayBuffer()),
    });
    return new Response("ok");
  });
  const dir = await Deno.makeTempDir({ prefix: "flowrun-curl-bytes-" });
  try {
    const direct = `http://127.0.0.1:${server.addr.port}`;
    // A host of the flows' own (one that does not resolve) is reached through the server as a proxy.
    const base = host ?? direct;
    await Deno.writeTextFile(`${dir}/upload.txt`, "uploaded\ntext ✓\n");
    await Deno.writeFile(`${dir}/blob.bin`, BLOB);
    await Deno.mkdir(`${dir}/curl-home`);
    await Deno.writeTextFile(`${dir}/curl-home/.curlrc`, "max-time = 5\n");
    for (const [name, spec] of Object.entries(cases)) {
      await Deno.writeTextFile(`${dir}/${name}.yaml`, flowFile(name, spec, base));
    }
    const out = await runCli(
      [
        "run",
        ".",
        "--report-json",
        "out.json",
        "--report-html",
        "out.html",
        "--no-color",
        ...(typeof args === "function" ? args(direct) : args),
      ],
      { cwd: dir, env: { API_TOKEN: TOKEN } },
    );
    assert.equal(out.code, 1, out.stdout + out.stderr);
    const sent = new Map(seen.map((s) => [s.path.split("?")[0].slice("/case/".length), s]));
    assert.equal(sent.size, Object.keys(cases).length, out.stdout);
    const report = JSON.parse(await Deno.readTextFile(`${dir}/out.json`));
    const html = await Deno.readTextFile(`${dir}/out.html`);
    const data = /<script type="application\/json" id="data">([\s\S]*?)<\/script>/.exec(html);
    const shown = new Set(strings(JSON.parse(data![1])));
    const lines = new Map<string, string>();
    const wrong: string[] = [];
    for (const flow of report.flows) {
      const line: string = flow.steps[0].request.curl;
      lines.set(flow.name, line);
      if (!run) continue;
      try {
        await check(flow.name, line, out.stdout, shown, dir, seen, sent.get(flow.name)!);
      } catch (error) {
        wrong.push((error as Error).message);
      }
    }
    return { lines, wrong };
  } finally {
    await server.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test({
  name: "a printed curl line, run with curl, sends what flowrun sent, for every kind of body",
  ignore: !hasCurl,
  async fn() {
    const { wrong } = await runCases(CASES, []);
    // Every case is tried, so one run shows every body kind the line gets wrong.
    assert.deepEqual(wrong, []);
  },
});

/** A multi-line body longer than a report keeps of a body (64 KiB). */
const LONG = {
  "long-body": `    method: POST
    headers: {content-type: text/plain}
    body: |
${
    Array.from({ length: 2000 }, (_, i) => `      line ${i} of a body longer than the report keeps`)
      .join("\n")
  }
`,
};

Deno.test({
  name: "a body too long for the report is left out of the curl line, which says so; -vv keeps it",
  ignore: !hasCurl,
  async fn() {
    const cut = await runCases(LONG, [], { run: false });
    const line = cut.lines.get("long-body")!;
    assert.match(line, /^curl -X POST .* # the body is left out: [^']*$/, line);
    assert.doesNotMatch(line, /printf|--data/, line);
    const whole = await runCases(LONG, ["-vv"]);
    assert.match(whole.lines.get("long-body")!, /^printf '.*' \| curl .* --data-binary @-$/s);
    assert.deepEqual(whole.wrong, []);
  },
});

/** One case: the line as shown everywhere, then run with curl and compared. */
async function check(
  name: string,
  line: string,
  stdout: string,
  shown: Set<string>,
  dir: string,
  seen: Seen[],
  sent: Seen,
): Promise<void> {
  // The console shows the same line, nothing escaped: what a person copies is the command.
  assert.ok(
    stdout.includes(`curl: ${line}\n`),
    `${name}: the console shows another line than ${line}`,
  );
  assert.ok(shown.has(line), `${name}: the HTML report does not show ${line}`);
  // deno-lint-ignore no-control-regex -- matching control characters is the point.
  assert.doesNotMatch(line, /[\x00-\x1f\x7f]/, line);
  assert.ok(!line.includes(TOKEN), line);
  if (name === "secret-lines") assert.match(line, /"\$API_TOKEN"/, line);
  if (name === "raw-url") assert.match(line, / --globoff '[^\t]*filter\[a\]=\{1\}&t=ab'/, line);
  seen.length = 0;
  const out = await new Deno.Command("sh", {
    args: ["-c", line],
    cwd: dir,
    stdin: "null",
    // curl reads $CURL_HOME/.curlrc: a time limit there bounds a curl that waits for a body it
    // will never get (`-X HEAD`), without changing the line under test.
    env: { PATH: "/usr/bin:/bin", CURL_HOME: `${dir}/curl-home`, API_TOKEN: TOKEN },
    clearEnv: true,
  }).output();
  const err = new TextDecoder().decode(out.stderr);
  assert.equal(out.code, 0, `${name}: ${line}\n${err}`);
  assert.equal(seen.length, 1, `${name}: ${line}`);
  await compare(name, sent, seen[0], line);
}

Deno.test({
  name: "a run through --proxy prints a curl line that goes through the same proxy",
  ignore: !hasCurl,
  async fn() {
    const cases = { "proxied": CASES["block-text"] };
    const out = await runCases(cases, (server) => ["--proxy", server], {
      host: "http://flowrun-target.invalid",
    });
    assert.match(out.lines.get("proxied")!, / \| curl --proxy http:\/\/127\.0\.0\.1:\d+ -X POST /);
    assert.deepEqual(out.wrong, []);
  },
});
