/**
 * Every command flowrun writes for a person to paste (the `curl` line of a
 * failed step, the `reproduce:` line, the GitHub job summary's "Reproduce"
 * block) runs nothing but that command, with exactly the arguments it names,
 * and shows no secret in any form. Each generated command is pasted into
 * `sh -c` here, with the command it starts (`curl`, `deno`, `flowrun`)
 * replaced by a shell function that writes its arguments back, in a
 * directory that must stay empty: every hostile value in the corpus tries to
 * `touch` a canary file there.
 */
import assert from "node:assert/strict";
import { curlCommand, type CurlRequest, shellWord } from "../lib/http/curl.ts";
import { githubSummary } from "../lib/report/github.ts";
import { Redactor } from "../lib/secrets/mod.ts";
import { visible } from "../lib/report/terminal.ts";
import { root, runCli } from "./support/cli.ts";
import { RUNNER_PERMISSIONS, RUNNER_V8_FLAGS } from "../scripts/permissions.ts";
import { entityDecode } from "./support/hostile.ts";

/**
 * Stands in for the commands a generated line starts: each writes its
 * arguments, NUL-ended; curl's `@-` (a body `printf` pipes in) as what it reads.
 */
const STUBS = `curl() {
  for a in "$@"; do
    if [ "$a" = @- ]; then cat; printf '\\0'; else printf '%s\\0' "$a"; fi
  done
  printf '\\036\\0'
}
deno() { curl "$@"; }
flowrun() { curl "$@"; }
`;

/** {@linkcode pastedCalls} of a text that must start one command. */
async function pasted(command: string, env: Record<string, string> = {}): Promise<string[]> {
  const calls = await pastedCalls(command, env);
  assert.equal(calls.length, 1, `${JSON.stringify(command)} started ${calls.length} commands`);
  return calls[0];
}

/**
 * Runs `text` in `sh -c` after the stubs, in an empty directory; returns
 * the arguments of each stubbed command it started, and fails if anything
 * else ran (the directory is no longer empty) or the shell complained.
 */
async function pastedCalls(
  text: string,
  env: Record<string, string> = {},
): Promise<string[][]> {
  const command = text;
  const dir = await Deno.makeTempDir({ prefix: "flowrun-paste-" });
  try {
    const out = await new Deno.Command("sh", {
      args: ["-c", `${STUBS}${command}`],
      cwd: dir,
      env: { PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin", ...env },
      clearEnv: true,
      stdin: "null",
    }).output();
    const stderr = new TextDecoder().decode(out.stderr);
    assert.equal(out.code, 0, `${JSON.stringify(command)} failed in sh: ${stderr}`);
    assert.equal(stderr, "", `${JSON.stringify(command)} wrote to stderr`);
    const left: string[] = [];
    for await (const entry of Deno.readDir(dir)) left.push(entry.name);
    assert.deepEqual(left, [], `pasting ${JSON.stringify(command)} ran more than the command`);
    const calls = new TextDecoder().decode(out.stdout).split("\x1e\0").slice(0, -1);
    return calls.map((call) => call === "" ? [] : call.slice(0, -1).split("\0"));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

// ---------------------------------------------------------------------------
// The corpus: what a flow, a recording or a server can put into a command.

/** Methods that are RFC 9110 tokens (the loader accepts them) and mean something to a shell. */
export const HOSTILE_METHODS = [
  "GET'",
  "'",
  "A|B",
  "A&B",
  "$IFS",
  "`ID`",
  "!X",
  "~X",
  "*",
  "P#ST",
  "A^B",
  "%1",
  "'*'",
];

const CANARY = "touch pwned";
const HOSTILE_TEXT = [
  `;${CANARY.replace(" ", "$IFS")};#`,
  `'; ${CANARY}; '`,
  `$(${CANARY})`,
  `\`${CANARY}\``,
  `"$(${CANARY})"`,
  `\\'; ${CANARY}; #`,
  `'\\''; ${CANARY}; '`,
  `\n${CANARY}\n`,
  `it's "quoted" \\ back\\slash`,
  `pässwörd ✓ 🔑`,
  `!!; ${CANARY}`,
];

const HOSTILE_URLS = [
  `http://x.test/a;touch$IFS.pwned;#`,
  `http://x.test/'$(touch pwned)'`,
  `http://x.test/?q=\`touch pwned\``,
  `http://x.test/"$(touch pwned)"?a=1&b=2;touch pwned`,
  `-o/tmp/pwned`,
];

/** What the stub must receive for a request: the command's arguments, in order. */
function argv(request: CurlRequest): string[] {
  const out: string[] = [];
  if (request.method !== "GET" || request.body) out.push("-X", request.method);
  // A URL that reads as an option is named as the URL.
  if (request.url.startsWith("-")) out.push("--url");
  out.push(request.url);
  for (const [name, value] of Object.entries(request.headers ?? {})) {
    out.push("-H", `${name}: ${value}`);
  }
  // A body that is not one line of text is piped in by printf (see lib/http/curl_body.ts).
  // deno-lint-ignore no-control-regex -- matching control characters is the point.
  const piped = /[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/
    .test(request.body ?? "");
  if (request.body) out.push(piped ? "--data-binary" : "--data-raw", request.body);
  return out;
}

Deno.test("a curl line runs nothing but curl, and curl gets exactly the request, whatever it holds", async () => {
  const requests: CurlRequest[] = [];
  for (const method of [...HOSTILE_METHODS, "GET", "POST"]) {
    requests.push({ method, url: "http://x.test/a;touch$IFS.pwned;#" });
  }
  for (const url of HOSTILE_URLS) requests.push({ method: "GET", url });
  for (const [i, text] of HOSTILE_TEXT.entries()) {
    requests.push({
      method: HOSTILE_METHODS[i % HOSTILE_METHODS.length],
      url: `http://x.test/${encodeURIComponent(text)}`,
      headers: { [`x${"'|&$`!~*#^%".charAt(i % 11)}h`]: text, "content-type": "text/plain" },
      body: text,
    });
  }
  for (const request of requests) {
    const command = curlCommand(request);
    assert.deepEqual(await pasted(command), argv(request), command);
  }
});

Deno.test("a curl line names each secret the run knows by name, and masks it where it is encoded", async () => {
  const secret = `ab'c d"é-s3cr3t`;
  const redactor = new Redactor();
  redactor.add(secret);
  const names = new Map([[secret, "API_TOKEN"]]);
  const request: CurlRequest = {
    method: "POST",
    url: `http://x.test/p/${encodeURIComponent(secret)}?t=${encodeURI(secret)}`,
    headers: { "x-token": secret, "content-type": "application/json" },
    body: JSON.stringify({ token: secret, form: new URLSearchParams({ t: secret }).toString() }),
  };
  const command = curlCommand(request, names, (text) => redactor.redact(text));
  for (const form of secretForms(secret)) {
    assert.ok(!command.includes(form), `the curl line holds ${JSON.stringify(form)}: ${command}`);
  }
  const args = await pasted(command, { API_TOKEN: secret });
  // Where the secret stands as it is, the shell puts it back; encoded, it is masked.
  assert.ok(args.includes(`x-token: ${secret}`), args.join("\n"));
  assert.ok(!args.some((a) => a !== `x-token: ${secret}` && a.includes("s3cr3t")), args.join("\n"));
});

Deno.test("a secret name a shell cannot expand is masked in the curl line, not spliced", async () => {
  const command = curlCommand(
    { method: "GET", url: "http://x.test/", headers: { "x-a": "Bearer top-secret-1" } },
    new Map([["top-secret-1", "my-token"], ["x$(touch pwned)", "A;touch pwned"]]),
  );
  assert.ok(!command.includes("top-secret-1"), command);
  assert.ok(!command.includes("my-token"), command);
  assert.deepEqual(await pasted(command), ["http://x.test/", "-H", "x-a: Bearer ***"]);
});

/**
 * The forms a secret can take in a curl line, each also shell-quoted: as it
 * is, percent-encoded (component, whole URI, form), JSON-escaped.
 */
export function secretForms(secret: string): string[] {
  const json = JSON.stringify(secret).slice(1, -1);
  const forms = [
    secret,
    encodeURIComponent(secret),
    encodeURI(secret),
    new URLSearchParams({ v: secret }).toString().slice(2),
    json,
    JSON.stringify(json).slice(1, -1),
  ];
  const quoted = forms.map((f) => f.replaceAll("'", `'\\''`));
  return [...new Set([...forms, ...quoted])];
}

Deno.test("shellWord leaves plain words alone and quotes every other", async () => {
  for (const word of ["run", "flows/a.yaml", "--max-body", "1MiB", "a=b"]) {
    assert.equal(shellWord(word), word);
  }
  for (const word of ["=cmd", "", "~x", "a b", "a\\b", "it's", "a\nb", "$x", "{a,b}"]) {
    assert.deepEqual(await pasted(`curl ${shellWord(word)}`), [word]);
    assert.notEqual(shellWord(word), word);
  }
});

// ---------------------------------------------------------------------------
// The GitHub job summary.

/** File names that try to leave the summary's code block or the shell word they are in. */
export const HOSTILE_FILES = [
  "flows/it's.yaml",
  "flows/$(touch pwned).yaml",
  "flows/`touch pwned`.yaml",
  "flows/a\\b.yaml",
  "flows/x;touch pwned;.yaml",
  "flows/n\n```\ntouch pwned\n```\n.yaml",
  "flows/n\n````````\ntouch pwned\n.yaml",
  'flows/sp ace "q" ü.yaml',
  "flows/|pipe|.yaml",
  "flows/x</details>y.yaml".replace("/d", "d"),
];

/** The lines of the summary's "Reproduce" code block: what a reader copies. */
function reproduceBlock(markdown: string): string {
  const lines = markdown.split("\n");
  const start = lines.indexOf("<details><summary>Reproduce</summary>");
  assert.ok(start >= 0, markdown);
  const fence = lines[start + 2];
  const run = /^(`{3,})sh$/.exec(fence);
  assert.ok(run, `no fence: ${fence}`);
  // CommonMark: the block ends at the first line of only backticks at least as long as the fence.
  const end = lines.findIndex((l, i) =>
    i > start + 2 && /^ {0,3}`+\s*$/.test(l) && l.trim().length >= run[1].length
  );
  assert.ok(end > 0, markdown);
  assert.deepEqual(lines.slice(end + 1, end + 4), ["", "</details>", ""], markdown);
  return lines.slice(start + 3, end).join("\n");
}

Deno.test("the job summary's Reproduce block holds each file's command, whatever the file is called", async () => {
  const c = { total: 1, passed: 0, failed: 1, error: 0, skipped: 0 };
  for (const file of HOSTILE_FILES) {
    const step = {
      name: "s",
      status: "failed",
      duration_ms: 1,
      attempts: 1,
      line: 3,
      column: 5,
      captures: [],
      request: { method: "GET", url: "http://x.test/" },
      response: { status: 500 },
      assertions: [{ passed: false, message: "status: expected 200, got 500", line: 6, column: 7 }],
    };
    const result = {
      run_id: "r1",
      status: "failed",
      duration_ms: 1,
      flows: [{ file, name: "F", status: "failed", steps: [step] }],
      totals: { flows: c, steps: c, assertions: { total: 1, passed: 0, failed: 1 } },
    };
    const markdown = githubSummary(result as never, (f) => `flowrun run ${shellWord(f)}`);
    assert.deepEqual(await pasted(reproduceBlock(markdown)), ["run", file], markdown);
    // The table keeps its three cells: a `|` in a name does not open a fourth.
    const row = markdown.split("\n").find((l) => l.startsWith("| `"))!;
    assert.equal(row.replaceAll("\\|", "").split("|").length, 5, row);
  }
});

// ---------------------------------------------------------------------------
// End to end: every artifact of a real run.

/** Whether `text` holds `line` as it is or with its control characters shown escaped. */
const shows = (text: string, line: string) => text.includes(line) || text.includes(visible(line));

/** A failing run over flows with hostile names, methods, URLs, headers and bodies, and its artifacts. */
async function hostileRun(
  flows: (base: string, i: number) => unknown,
  files: readonly string[],
  extra: { args?: string[]; env?: Record<string, string> } = {},
) {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-gen-" });
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    () => new Response("no", { status: 500 }),
  );
  try {
    const base = `http://127.0.0.1:${server.addr.port}`;
    await Deno.mkdir(`${dir}/flows`);
    for (const [i, file] of files.entries()) {
      await Deno.writeTextFile(`${dir}/${file}`, JSON.stringify(flows(base, i), null, 1));
    }
    const summary = `${dir}/summary.md`;
    const run = await runCli(
      ["run", "flows", "--out-dir", "out", "--run-id", "gen-1", ...extra.args ?? []],
      {
        cwd: dir,
        env: { GITHUB_ACTIONS: "true", GITHUB_STEP_SUMMARY: summary, ...extra.env },
      },
    );
    const read = (name: string) => Deno.readTextFile(`${dir}/${name}`);
    return {
      dir,
      run,
      json: JSON.parse(await read("out/report.json")),
      junit: entityDecode(await read("out/junit.xml")),
      html: (await read("out/report.html")).replaceAll("\\/", "/"),
      summary: await read("summary.md"),
    };
  } finally {
    await server.shutdown();
  }
}

Deno.test("every generated command of a real run runs nothing but its command, exactly", async () => {
  // Flow files whose names are valid here: no `/` inside a name.
  const files = HOSTILE_FILES.filter((f) => !f.slice("flows/".length).includes("/"));
  // Header values: what HTTP can carry (Latin-1, no line breaks).
  const texts = HOSTILE_TEXT.filter((t) => /^[\x20-\xff]*$/.test(t));
  const out = await hostileRun((base, i) => ({
    name: `hostile ${i}`,
    steps: [{
      name: "s",
      request: {
        method: HOSTILE_METHODS[i % HOSTILE_METHODS.length],
        url: `${base}/a;touch$IFS.pwned;'$(touch pwned)'/${i}?q=\`touch pwned\`&x="$(touch pwned)"`,
        headers: {
          [`x${"'|&$`!~*#^%".charAt(i % 11)}h`]: texts[i % texts.length],
          "content-type": "text/plain",
        },
        body: HOSTILE_TEXT[i % HOSTILE_TEXT.length],
      },
      assert: { status: 200 },
    }],
  }), files);
  try {
    assert.equal(out.run.code, 1, out.run.stdout + out.run.stderr);
    const flows = out.json.flows as {
      file: string;
      steps: { request: CurlRequest & { curl: string } }[];
    }[];
    assert.equal(flows.length, files.length);
    const cli = `${root}cli.ts`;
    const expected: string[] = [];
    for (const flow of flows) {
      const { curl, ...request } = flow.steps[0].request;
      // The curl line in report.json: pasted, curl gets exactly the request the run sent.
      assert.deepEqual(await pasted(curl), argv(request), curl);
      // The same line in the console, JUnit and HTML (control characters shown escaped).
      assert.ok(out.run.stdout.includes(`curl: ${visible(curl)}`), curl);
      assert.ok(shows(out.junit, `curl: ${curl}`), curl);
      assert.ok(out.html.includes(JSON.stringify(curl).slice(1, -1)), curl);
      // The reproduce line: run the same file, wherever it came from.
      // Started as the run was: deno run with the runner's V8 flags and permissions.
      const line = `deno run ${[...RUNNER_V8_FLAGS, ...RUNNER_PERMISSIONS].join(" ")} ${
        shellWord(cli)
      } run ${shellWord(flow.file)} --run-id gen-1`;
      expected.push(line);
      assert.ok(out.run.stdout.includes(`reproduce: ${visible(line)}`), line);
      assert.ok(shows(out.junit, `reproduce: ${line}`), line);
      assert.ok(out.html.includes(JSON.stringify(line).slice(1, -1)), line);
    }
    // The job summary's block, pasted whole: one command per flow, each naming a file that is there.
    const calls = await pastedCalls(reproduceBlock(out.summary));
    assert.equal(calls.length, flows.length, out.summary);
    for (const [i, call] of calls.entries()) {
      assert.deepEqual(call.slice(6, 8), [cli, "run"]);
      assert.equal(call[8], flows[i].file);
      assert.ok((await Deno.stat(`${out.dir}/${call[8]}`)).isFile, call[8]);
    }
    assert.equal(reproduceBlock(out.summary), expected.join("\n"));
  } finally {
    await Deno.remove(out.dir, { recursive: true });
  }
});

Deno.test("no secret shows in a curl line in any encoding it was sent in, in any artifact", async () => {
  // Each holds `'` (which quoting rewrites), `"` and what a URL, JSON and a form encode.
  const token = `ab'c d"é-s3cr3t-1`;
  const password = `p'w "x" ü-s3cr3t-2`;
  const step = (name: string, request: Record<string, unknown>) => ({
    name,
    request,
    assert: { status: 200 },
  });
  const steps = (base: string) => [
    step("url and json", {
      method: "POST",
      url: `${base}/p/\${ENV.GEN_TOKEN}/\${api_password}?t=\${ENV.GEN_TOKEN}&p=\${api_password}`,
      headers: { "x-t": "${ENV.GEN_TOKEN}", "x-p": "${api_password}" },
      body: {
        t: "${ENV.GEN_TOKEN}",
        p: "${api_password}",
        both: "${ENV.GEN_TOKEN}${api_password}",
      },
    }),
    step("form", {
      method: "PUT",
      url: `${base}/f`,
      form: { t: "${ENV.GEN_TOKEN}", p: "${api_password}" },
    }),
  ];
  const out = await hostileRun(
    (base, i) => ({ name: `secrets ${i}`, steps: [steps(base)[i]] }),
    ["flows/a.yaml", "flows/b.yaml"],
    {
      args: ["--secret", "GEN_TOKEN", "--var", `api_password=${password}`],
      env: { GEN_TOKEN: token },
    },
  );
  try {
    assert.equal(out.run.code, 1, out.run.stdout + out.run.stderr);
    const curls = (out.json.flows as { steps: { request: { curl: string } }[] }[])
      .map((f) => f.steps[0].request.curl);
    assert.equal(curls.length, 2);
    const texts = {
      stdout: out.run.stdout,
      "junit.xml": out.junit,
      "report.html": out.html,
      "report.json": JSON.stringify(out.json),
      curls: curls.join("\n"),
      "GitHub summary": out.summary,
    };
    for (const secret of [token, password]) {
      for (const form of secretForms(secret)) {
        for (const [where, text] of Object.entries(texts)) {
          assert.ok(!text.includes(form), `${where} holds ${JSON.stringify(form)}`);
        }
      }
    }
    for (const [where, text] of Object.entries(texts)) {
      assert.ok(!text.includes("s3cr3t"), `${where} holds a part of a secret`);
    }
    // The curl line still says where each secret goes, and runs nothing but curl.
    assert.match(curls[0], /"\$GEN_TOKEN"/);
    for (const curl of curls) await pasted(curl, { GEN_TOKEN: token });
  } finally {
    await Deno.remove(out.dir, { recursive: true });
  }
});

Deno.test("the redactor masks a secret's shell-quoted forms, raw and encoded", () => {
  const secret = `ab'c d"é-9`;
  const redactor = new Redactor();
  redactor.add(secret);
  for (const form of secretForms(secret)) {
    const text = `curl 'http://x.test/?t=${form}' -H 'x: 1'`;
    const masked = redactor.redact(text);
    assert.ok(!masked.includes("é-9") && !masked.includes("%C3%A9-9"), `${form} → ${masked}`);
    // JSON-escaped again, as report.json holds a curl line.
    assert.ok(!redactor.redact(JSON.stringify(text)).includes("-9"), form);
  }
});

// ---------------------------------------------------------------------------
// Methods: the loader and `convert har` let only RFC 9110 tokens through.

Deno.test("a method that is not an HTTP token is one positioned problem when the flow loads", async () => {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-method-" });
  try {
    for (const method of ["GET;touch pwned", "GET pwned", "$(touch)", 'A"B', "GET\n", "{x}"]) {
      await Deno.writeTextFile(
        `${dir}/m.yaml`,
        `name: m\nsteps:\n  - name: s\n    request:\n      method: ${
          JSON.stringify(method)
        }\n      url: http://127.0.0.1:9/\n`,
      );
      const run = await runCli(["validate", "m.yaml"], { cwd: dir });
      assert.equal(run.code, 2, run.stdout + run.stderr);
      assert.match(run.stdout + run.stderr, /m\.yaml:5:15 error\[bad-method\]/);
      assert.equal((run.stdout + run.stderr).match(/error\[/g)?.length, 1, run.stdout + run.stderr);
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("convert har skips a recorded entry whose method a flow could not send, in one sentence", async () => {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-har-method-" });
  const entry = (method: string, path: string) => ({
    startedDateTime: "2026-11-21T10:00:00.000Z",
    time: 1,
    request: { method, url: `https://api.test${path}`, headers: [] },
    response: {
      status: 200,
      headers: [{ name: "content-type", value: "application/json" }],
      content: { mimeType: "application/json", text: '{"ok":true}' },
    },
    _resourceType: "fetch",
  });
  try {
    await Deno.writeTextFile(
      `${dir}/s.har`,
      JSON.stringify({
        log: {
          entries: [
            entry("GET", "/items"),
            entry("GET;touch pwned;#", "/a"),
            entry("GET /x", "/b"),
            entry("connect", "/c"),
            entry("A|B", "/odd"),
          ],
        },
      }),
    );
    const run = await runCli(["convert", "har", "s.har", "-o", "flow.yaml"], { cwd: dir });
    assert.equal(run.code, 0, run.stdout + run.stderr);
    const notes = run.stderr.split("\n").filter((l) => l.includes("HTTP method token"));
    assert.equal(notes.length, 1, run.stderr);
    assert.match(
      notes[0],
      /^note: 3 entries have a method \("GET;TOUCH PWNED;#", "GET \/X", "CONNECT"\)/,
    );
    assert.match(run.stderr, /a method flowrun cannot send 3/);
    const flow = await Deno.readTextFile(`${dir}/flow.yaml`);
    const steps = flow.slice(flow.indexOf("\nsteps:"));
    assert.ok(!/PWNED|\/[abc]\b|CONNECT/i.test(steps), flow);
    assert.match(steps, /A\|B/);
    // What it wrote loads.
    const check = await runCli(["validate", "flow.yaml"], { cwd: dir });
    assert.equal(check.code, 0, check.stdout + check.stderr);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
