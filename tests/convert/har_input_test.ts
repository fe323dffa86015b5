/**
 * HARs as their producers write them: encodings (BOM, UTF-16), binary files,
 * request bodies recorded only as `params` (chrome-har writes JSON bodies so),
 * and headers whose values must be fresh on every request.
 */
import assert from "node:assert/strict";
import { convertHar } from "../../lib/convert/har.ts";
import { decodeHar, postDataText, repairFlattenedJson } from "../../lib/convert/har_input.ts";
import { UsageError } from "../../lib/model/errors.ts";
import { parse } from "yaml";
import { runCli } from "../support/cli.ts";
import { loadFlow } from "../../lib/load/load_flow.ts";
import { runFlows } from "../../lib/run/flows.ts";
import "../support/engines.ts";

const entry = (post?: Record<string, unknown>, headers: [string, string][] = []) => ({
  startedDateTime: "2026-11-21T10:00:00.000Z",
  request: {
    method: post ? "POST" : "GET",
    url: "https://shop.test/api/orders",
    headers: [
      ...(post ? [{ name: "content-type", value: String(post.mimeType) }] : []),
      ...headers.map(([name, value]) => ({ name, value })),
    ],
    ...(post ? { postData: post } : {}),
  },
  response: {
    status: 201,
    content: { mimeType: "application/json", text: '{"id":"ord_1","state":"new"}' },
  },
  _resourceType: "fetch",
});
const har = (...entries: unknown[]) => JSON.stringify({ log: { entries } });

const utf16 = (text: string, bigEndian: boolean, bom: boolean) => {
  const units = [...(bom ? [0xfeff] : []), ...text.split("").map((u) => u.charCodeAt(0))];
  return Uint8Array.from(
    units.flatMap((u) => bigEndian ? [u >> 8, u & 0xff] : [u & 0xff, u >> 8]),
  );
};

Deno.test("a HAR in UTF-8 with a BOM or in UTF-16 either way converts like plain UTF-8", () => {
  const text = har(entry({ mimeType: "application/json", text: '{"note":"thé 🙂"}' }));
  const plain = convertHar(text).yaml;
  const encodings = [
    new Uint8Array([0xef, 0xbb, 0xbf, ...new TextEncoder().encode(text)]),
    utf16(text, false, true),
    utf16(text, true, true),
    utf16(text, false, false),
    utf16(text, true, false),
  ];
  for (const bytes of encodings) assert.equal(convertHar(bytes).yaml, plain);
  assert.match(plain, /thé 🙂/);
});

Deno.test("binary input is refused in one clean sentence, without its bytes", () => {
  const inputs = [
    Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d, 0x49, 0x48]),
    Uint8Array.from([0x7b, 0x22, 0x01, 0x02, 0x1b, 0x5b, 0x32, 0x4a]),
    Uint8Array.from([0xc3, 0x28, 0xa0, 0xa1]),
  ];
  for (const bytes of inputs) {
    assert.throws(() => decodeHar(bytes), (error: unknown) => {
      assert.ok(error instanceof UsageError && error.code === "bad-har");
      // deno-lint-ignore no-control-regex -- no raw control byte may reach the message.
      assert.doesNotMatch(error.message, /[\x00-\x08\x0b-\x1f\x7f]/);
      assert.match(error.message, /^The file is not a HAR: .*looks binary\.$/);
      return true;
    });
  }
});

Deno.test("the CLI reads HAR bytes: UTF-16 converts, binary exits 2 with the sentence", async () => {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-har-" });
  try {
    await Deno.writeFile(`${dir}/utf16.har`, utf16(har(entry()), false, true));
    const ok = await runCli(["convert", "har", `${dir}/utf16.har`]);
    assert.equal(ok.code, 0, ok.stderr);
    assert.match(ok.stdout, /url: \$\{vars\.base_url\}\/api\/orders/);
    await Deno.writeFile(`${dir}/bin.har`, Uint8Array.from([0x7b, 0x00, 0x01, 0x1b, 0x5b]));
    const bad = await runCli(["convert", "har", `${dir}/bin.har`]);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /^error\[bad-har\]: The file is not a HAR/);
    assert.ok(!bad.stderr.includes("\x1b"), "no raw escape byte");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("chrome-har's params become the JSON body they were, types and lists kept", () => {
  const params = [
    { name: "sku", value: "tea" },
    { name: "qty", value: 2 },
    { name: "gift", value: false },
    { name: "tags", value: "green" },
    { name: "tags", value: "loose" },
    { name: "address", value: { city: "Lyon", zip: "69001" } },
  ];
  assert.equal(
    postDataText({ mimeType: "application/json; charset=utf-8", params }),
    '{"sku":"tea","qty":2,"gift":false,"tags":["green","loose"],"address":{"city":"Lyon","zip":"69001"}}',
  );
  assert.equal(
    postDataText({
      mimeType: "application/json",
      params: [{ name: "0", value: 1 }, { name: "1", value: 2 }],
    }),
    "[1,2]",
  );
  const flow = parse(convertHar(har(entry({ mimeType: "application/json", params }))).yaml);
  assert.deepEqual(flow.steps[0].request.body, {
    sku: "tea",
    qty: 2,
    gift: false,
    tags: ["green", "loose"],
    address: { city: "Lyon", zip: "69001" },
  });
});

Deno.test("a password in chrome-har params is replaced by a variable, never written", () => {
  const login = {
    ...entry({
      mimeType: "application/json",
      params: [{ name: "email", value: "ann@shop.test" }, {
        name: "password",
        value: "hunter2-secret",
      }],
    }),
  };
  login.request.url = "https://shop.test/api/login";
  const { yaml } = convertHar(har(login, entry()));
  assert.ok(!yaml.includes("hunter2-secret"), yaml);
  assert.match(yaml, /password: \$\{ENV\.LOGIN_PASSWORD\}/);
});

Deno.test("Idempotency-Key, nonces and request ids are fresh each run, not required variables", () => {
  const { yaml, summary } = convertHar(har(entry(
    { mimeType: "application/json", text: '{"sku":"tea"}' },
    [
      ["Idempotency-Key", "7f1c2a9e-3b4d-4c5e-8f6a-1b2c3d4e5f60"],
      ["X-Nonce", "a3f9c21b77"],
      ["X-Request-Id", "c0ffee00-0000-4000-8000-000000000001"],
    ],
  )));
  const flow = parse(yaml);
  const headers = flow.steps[0].request.headers;
  assert.equal(headers["idempotency-key"] ?? headers["Idempotency-Key"], "${RANDOM.UUID}");
  assert.equal(headers["x-nonce"] ?? headers["X-Nonce"], "${RANDOM.HEX_10}");
  assert.deepEqual(summary.env, [], "no variable is required for them");
  assert.ok(!yaml.includes("7f1c2a9e"));
});

Deno.test("a recorded secret in an unexpected place becomes a variable, never a *** sent as data", () => {
  // A token is no word of the user's: inside another value it is still the token.
  const token = "tok_9f8e7d6c5b4a39281706";
  const me = entry(undefined, [["Authorization", `Bearer ${token}`]]);
  me.request.url = "https://shop.test/api/me";
  const search = entry();
  search.request.url = `https://shop.test/api/search?q=why+${token}+fails`;
  const { yaml, summary } = convertHar(har(me, search));
  assert.ok(!yaml.includes(token), yaml);
  const flow = parse(yaml);
  const url: string = flow.steps[1].request.url;
  assert.ok(!url.includes("***"), url);
  assert.match(url, /\$\{ENV\.RECORDED_SECRET\}/);
  assert.ok(summary.env.includes("RECORDED_SECRET"), summary.env.join());
  assert.match(yaml, /^# +RECORDED_SECRET +a recorded secret value found inside request data$/m);
});

Deno.test("a typed password inside a search term is the user's words there: sent as recorded, masked in comments", () => {
  // Issue 52, class 7 (har_password_inside_value_test.ts): replaced only where it is a credential.
  const login = entry({
    mimeType: "application/json",
    text: '{"email":"ann@shop.test","password":"hunter2-secret"}',
  });
  login.request.url = "https://shop.test/api/login";
  const search = entry();
  search.request.url = "https://shop.test/api/search?q=why+hunter2-secret+fails";
  const { yaml, summary } = convertHar(har(login, search));
  const url: string = parse(yaml).steps[1].request.url;
  assert.match(url, /q=why\+hunter2-secret\+fails$/, url);
  assert.deepEqual(summary.env, ["LOGIN_PASSWORD"]);
  const comments = yaml.split("\n").filter((l) => l.trimStart().startsWith("#")).join("\n");
  assert.ok(!comments.includes("hunter2-secret"), comments);
});

Deno.test("no false notes: HEAD, 204 and 304 responses have no body to miss", () => {
  const e = (method: string, status: number) => ({
    ...entry(),
    request: { method, url: `https://shop.test/api/items/${status}`, headers: [] },
    response: { status, content: { mimeType: "application/json", size: 120 } },
  });
  const { summary } = convertHar(har(entry(), e("HEAD", 200), e("DELETE", 204), e("GET", 304)));
  assert.deepEqual(summary.notes.filter((n) => /not in the HAR/.test(n)), []);
  const missing = convertHar(har(entry(), e("GET", 200))).summary.notes;
  assert.ok(missing.some((n) => /not in the HAR/.test(n)), "a 200 without its body is still noted");
});

Deno.test("an OAuth code exchange gets a note and variables, not a recorded code replayed", () => {
  const exchange = entry({
    mimeType: "application/x-www-form-urlencoded",
    text:
      "grant_type=authorization_code&code=SplxlOBeZQQYbYS6WxSbIA&code_verifier=dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk&client_id=web&redirect_uri=https%3A%2F%2Fshop.test%2Fcb",
  });
  exchange.request.url = "https://shop.test/oauth/token";
  exchange.response.content.text = '{"access_token":"at_5f4e3d2c1b0a9f8e","token_type":"Bearer"}';
  const use = entry();
  use.request.headers.push({ name: "authorization", value: "Bearer at_5f4e3d2c1b0a9f8e" });
  const { yaml, summary } = convertHar(har(exchange, use));
  for (const recorded of ["SplxlOBeZQQYbYS6WxSbIA", "dBjftJeZ4CVP", "at_5f4e3d2c1b0a9f8e"]) {
    assert.ok(!yaml.includes(recorded), recorded);
  }
  assert.deepEqual(summary.env.filter((n) => n.startsWith("OAUTH")), [
    "OAUTH_CODE",
    "OAUTH_CODE_VERIFIER",
  ]);
  assert.ok(
    summary.notes.some((n) => /OAuth authorization code, which cannot be replayed/.test(n)),
  );
});

Deno.test("an upload the recording does not hold becomes a multipart body with a placeholder file and a note", () => {
  const mime = "multipart/form-data; boundary=----WebKitFormBoundaryX7a";
  const shapes = {
    // Chrome: the text with the file part empty.
    chrome: {
      mimeType: mime,
      text:
        '------WebKitFormBoundaryX7a\r\nContent-Disposition: form-data; name="title"\r\n\r\nQ3\r\n' +
        '------WebKitFormBoundaryX7a\r\nContent-Disposition: form-data; name="file"; filename="plan.csv"\r\n' +
        "Content-Type: text/csv\r\n\r\n\r\n------WebKitFormBoundaryX7a--\r\n",
    },
    // Firefox and chrome-har: only the fields.
    params: {
      mimeType: mime,
      params: [{ name: "title", value: "Q3" }, {
        name: "file",
        fileName: "plan.csv",
        contentType: "text/csv",
      }],
    },
  };
  for (const [shape, post] of Object.entries(shapes)) {
    const { yaml, summary, files } = convertHar(har(entry(post)));
    assert.ok(
      summary.notes.some((n) => n.includes("uploads/plan.csv") && n.includes("placeholder")),
      `${shape}: ${summary.notes.join("\n")}`,
    );
    const step = parse(yaml).steps[0];
    // The runner writes its own boundary: no recorded content type, no raw body.
    assert.equal(step.request.headers?.["content-type"], undefined);
    assert.equal(step.request.body, undefined);
    assert.deepEqual(step.request.multipart, {
      title: "Q3",
      file: { file: "uploads/plan.csv", content_type: "text/csv" },
    });
    assert.deepEqual(files, [{
      path: "uploads/plan.csv",
      text: "(file content not recorded: replace it)\n",
    }]);
    // The flow loads with the file beside it.
    const loaded = loadFlow(yaml, "t.yaml", {
      readFile: () => ({ bytes: new TextEncoder().encode(files[0].text) }),
    });
    assert.deepEqual(loaded.problems, [], shape);
  }
});

Deno.test("client-made UUIDs get fresh values in path, query, JSON and multipart bodies, one per run", async () => {
  const DRAFT = "3f1c2b9a-7d4e-4c1a-9b2f-0e8d7c6b5a41";
  const REF = "8a7b6c5d-4e3f-4a1b-8c9d-0e1f2a3b4c5d";
  const PART = "c0ffee00-1234-4abc-9def-0123456789ab";
  const boundary = "b-7f3";
  const multipart =
    `--${boundary}\r\nContent-Disposition: form-data; name="upload_id"\r\n\r\n${PART}` +
    `\r\n--${boundary}--\r\n`;
  const json = (text: string) => ({ mimeType: "application/json", text });
  const entries = [
    {
      request: {
        method: "PUT",
        url: `https://app.test/api/drafts/${DRAFT}`,
        headers: [{ name: "content-type", value: "application/json" }],
        postData: json(JSON.stringify({ id: DRAFT, title: "Plan" })),
      },
      response: { status: 201, content: json('{"saved":true}') },
    },
    {
      request: { method: "GET", url: `https://app.test/api/drafts/${DRAFT}?ref=${REF}` },
      response: { status: 200, content: json('{"title":"Plan"}') },
    },
    {
      request: {
        method: "POST",
        url: `https://app.test/api/drafts/${DRAFT}/attachments`,
        headers: [{ name: "content-type", value: `multipart/form-data; boundary=${boundary}` }],
        postData: { mimeType: `multipart/form-data; boundary=${boundary}`, text: multipart },
      },
      response: { status: 201, content: json('{"attached":true}') },
    },
  ].map((e) => ({ ...e, _resourceType: "fetch", startedDateTime: "2026-11-21T10:00:00.000Z" }));
  const { yaml } = convertHar(har(...entries));
  // Only the comments, which show the recorded requests, still hold them.
  const code = yaml.split("\n").filter((l) => !/^\s*#/.test(l)).join("\n");
  for (const recorded of [DRAFT, REF, PART]) assert.ok(!code.includes(recorded), yaml);
  // A server that refuses an id it has seen: replaying recorded ids fails on the second run.
  const drafts = new Set<string>();
  const uploads = new Set<string>();
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const url = new URL(req.url);
    const id = url.pathname.split("/")[3];
    if (req.method === "PUT") {
      const body = await req.json();
      if (drafts.has(id) || body.id !== id) return Response.json({ saved: false }, { status: 409 });
      drafts.add(id);
      return Response.json({ saved: true }, { status: 201 });
    }
    if (!drafts.has(id)) return Response.json({}, { status: 404 });
    if (req.method === "GET") {
      return url.searchParams.get("ref")?.length === 36
        ? Response.json({ title: "Plan" })
        : Response.json({}, { status: 400 });
    }
    const upload = String((await req.formData()).get("upload_id"));
    if (uploads.has(upload)) return Response.json({ attached: false }, { status: 409 });
    uploads.add(upload);
    return Response.json({ attached: true }, { status: 201 });
  });
  try {
    const env = (name: string) =>
      name === "BASE_URL" ? `http://127.0.0.1:${server.addr.port}` : undefined;
    const loaded = loadFlow(yaml, "t.yaml", { env });
    assert.deepEqual(loaded.problems, []);
    for (const run of ["first", "second"]) {
      const result = await runFlows([loaded.flow!], { env, runId: run });
      assert.equal(result.status, "passed", `${run}: ${JSON.stringify(result.flows[0].steps)}`);
    }
    assert.equal(drafts.size, 2);
  } finally {
    await server.shutdown();
  }
});

Deno.test("an id taken from a list is found by the name the flow itself sent, on every run", async () => {
  const json = (text: string) => ({ mimeType: "application/json", text });
  const at = (s: number) => new Date(Date.UTC(2026, 10, 21, 10, 0, s)).toISOString();
  const entries = [
    {
      startedDateTime: at(0),
      request: {
        method: "POST",
        url: "https://app.test/api/projects",
        headers: [{ name: "content-type", value: "application/json" }],
        postData: json('{"name":"Project 4821"}'),
      },
      response: { status: 201, content: json("{}") },
    },
    {
      startedDateTime: at(1),
      request: { method: "GET", url: "https://app.test/api/projects" },
      response: {
        status: 200,
        content: json(JSON.stringify({
          items: [{ id: "prj_0000aaaa", name: "Other" }, {
            id: "prj_7f3a9c2e",
            name: "Project 4821",
          }],
        })),
      },
    },
    {
      startedDateTime: at(2),
      request: { method: "DELETE", url: "https://app.test/api/projects/prj_7f3a9c2e" },
      response: { status: 204, content: { mimeType: "", text: "" } },
    },
  ].map((e) => ({ ...e, _resourceType: "fetch" }));
  const { yaml } = convertHar(har(...entries));
  assert.match(
    yaml,
    /\{ path: "\$\.json\.items\[\?@\.name == 'Project \$\{RUN_ID\}'\]\.id", first: true \}/,
  );
  const projects: { id: string; name: string }[] = [{ id: "prj_0000aaaa", name: "Other" }];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const url = new URL(req.url);
    if (req.method === "POST") {
      const { name } = await req.json();
      projects.push({ id: `prj_${crypto.randomUUID().slice(0, 8)}`, name });
      return Response.json({}, { status: 201 });
    }
    if (req.method === "GET") return Response.json({ items: projects });
    const i = projects.findIndex((p) => p.id === url.pathname.split("/").at(-1));
    if (i < 0) return new Response(null, { status: 404 });
    projects.splice(i, 1);
    return new Response(null, { status: 204 });
  });
  try {
    const env = (name: string) =>
      name === "BASE_URL" ? `http://127.0.0.1:${server.addr.port}` : undefined;
    const loaded = loadFlow(yaml, "t.yaml", { env });
    assert.deepEqual(loaded.problems, []);
    for (const run of ["r1", "r2"]) {
      const result = await runFlows([loaded.flow!], { env, runId: run });
      assert.equal(result.status, "passed", `${run}: ${JSON.stringify(result.flows[0].steps)}`);
    }
    // Each run deleted the project it created, never "Other".
    assert.deepEqual(projects.map((p) => p.name), ["Other"]);
  } finally {
    await server.shutdown();
  }
});

Deno.test("a flattened member the rest of the recording shows as a list is a list again when the size agrees", () => {
  // Seen on Node-RED (chrome-har): the last deploy's one-tab list `flows: [tab]` came back as
  // `flows: tab` and the server answered 400; other deploys and GET /flows hold `flows` as a list.
  const sent = JSON.stringify({ flows: [{ id: "t1", type: "tab" }], rev: "abc" });
  const flat = JSON.stringify({ flows: { id: "t1", type: "tab" }, rev: "abc" });
  const listed = (key: string) => key === "flows";
  const fixed = repairFlattenedJson(flat, sent.length, { rev: "def" }, listed);
  assert.equal(fixed.text, sent);
  assert.deepEqual(fixed.restored, ["flows"]);
  // Without that evidence, or when two members would fit as well, nothing is guessed.
  assert.ok(repairFlattenedJson(flat, sent.length, { rev: "def" }).lost);
  const both = JSON.stringify({ a: "x", b: "y" });
  const ambiguous = repairFlattenedJson(both, both.length + 2, {}, () => true);
  assert.ok(ambiguous.lost && ambiguous.restored.length === 0);
});
