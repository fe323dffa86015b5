/** What a flow sends in secret places is secret from the start (its fuller test: discover_test.ts). */
import assert from "node:assert/strict";
import { loadFlow } from "../../lib/load/load_flow.ts";
import { secretInputs } from "../../lib/secrets/flow_inputs.ts";
import { secretsInRequest } from "../../lib/secrets/discover.ts";
import { grpcReader } from "../../lib/kinds/grpc/mod.ts";
import "../support/engines.ts";

await grpcReader.load();

Deno.test("secret-named query parameters, cookies and form fields are secret inputs", () => {
  const { flow, problems } = loadFlow(
    `name: f
vars: { sid: s-1, note: n }
steps:
  - name: s
    request:
      method: POST
      url: "http://x.test/?api_key=lit-key&page=\${vars.note}"
      cookies: { session: "\${vars.sid}" }
      form: { password: "\${ENV.PW}", comment: "\${vars.note}" }
`,
    "f.yaml",
    { env: (name) => name },
  );
  assert.deepEqual(problems, []);
  const inputs = secretInputs(flow!);
  assert.deepEqual([...inputs.vars], ["sid"]);
  assert.deepEqual([...inputs.env], ["PW"]);
  assert.deepEqual([...inputs.literals], ["lit-key"]);
});

Deno.test("constant text sent in the clear is the flow's own, but what it also sends in a secret place", () => {
  const { flow, problems } = loadFlow(
    `name: f
steps:
  - name: s
    request:
      method: POST
      url: "http://x.test/tokens?page=2"
      headers: { x-team: ci-team-7, x-api-key: lit-key-1, x-note: lit-key-1 }
      query: { filter: name-9 }
      body: { tokenName: ci-client-2, n: 1234, password: pw-123456, nested: { label: "\${ENV.L}-x", tag: tag-42 } }
  - name: t
    request:
      method: POST
      url: "http://x.test/tokens"
      body: { tokenName: ci-client-3, api_key: k-5678 }
`,
    "f.yaml",
    { env: (name) => name },
  );
  assert.deepEqual(problems, []);
  const inputs = secretInputs(flow!);
  assert.deepEqual(
    [...inputs.clear!].sort(),
    ["1234", "ci-client-2", "ci-client-3", "ci-team-7", "name-9", "tag-42"],
  );
  assert.ok(inputs.literals.has("lit-key-1"));
});

Deno.test("a literal under a query's key word is data when it is JSON or a range's bound", () => {
  const { flow, problems } = loadFlow(
    `name: f
steps:
  - name: s
    request:
      url: 'http://x.test/v?keys=["a"]&startkey=apple&key=5&api_key=lit-key'
`,
    "f.yaml",
    { env: (name) => name },
  );
  assert.deepEqual(problems, []);
  assert.deepEqual([...secretInputs(flow!).literals], ["lit-key"]);
});

Deno.test("text written under a header whose name merely looks secret is the flow's own", () => {
  const { flow, problems } = loadFlow(
    `name: f
steps:
  - name: s
    request:
      method: POST
      url: "http://x.test/orders"
      headers:
        Idempotency-Key: "<string>"
        X-Request-Key: 3f2b9c1e-7a4d-4e8b-9c0f-1a2b3c4d5e6f
        X-Client-Key: plain-words
        X-Auth-Token: typed-pass
        X-Signing-Key: sk_live_4eC39HqLyjWDarjtT1zdp7dc
        X-Api-Key: lit-api-key
        Authorization: Bearer lit-bearer
        X-Session-Token: "\${ENV.UPSTREAM}"
        X-Shared-Key: shared-text
    capture: { csrf: $.json.csrf }
  - name: t
    request:
      url: "http://x.test/?api_key=shared-text"
      headers: { X-Csrf-Token: "\${steps.s.capture.csrf}" }
`,
    "f.yaml",
    { env: (name) => name },
  );
  assert.deepEqual(problems, []);
  const inputs = secretInputs(flow!);
  assert.deepEqual([...inputs.written!].sort(), [
    "idempotency-key\0<string>",
    "x-client-key\0plain-words",
    "x-request-key\x003f2b9c1e-7a4d-4e8b-9c0f-1a2b3c4d5e6f",
  ]);
  // A header that exists to carry a credential, a random key, a text also sent in a secret place.
  assert.deepEqual([...inputs.literals].sort(), [
    "Bearer lit-bearer",
    "lit-api-key",
    "shared-text",
    "sk_live_4eC39HqLyjWDarjtT1zdp7dc",
    // Typed under a header whose words say it carries a credential: a typed credential.
    "typed-pass",
  ]);
  // What an expression brings there stays secret, wherever it came from.
  assert.deepEqual([...inputs.env], ["UPSTREAM"]);
  assert.deepEqual([...inputs.captures], ["s\0csrf"]);
  assert.ok(inputs.clear!.has("<string>") && inputs.clear!.has("plain-words"));
});

Deno.test("a websocket, sse or grpc step's written header and metadata text is the flow's own", () => {
  const { flow, problems } = loadFlow(
    `name: f
steps:
  - name: w
    websocket:
      url: ws://x.test/socket
      headers:
        Idempotency-Key: "<string>"
        X-Auth-Token: typed-ws-pass
        Cookie: "sid=\${ENV.WS_SID}"
  - name: e
    sse:
      url: http://x.test/events
      headers:
        X-Request-Key: order-7
        X-Api-Key: lit-sse-key
        X-Session-Token: "\${ENV.SSE_TOKEN}"
        X-Trace: trace-text
    capture: { t: "$.json.events[0].data" }
  - name: g
    grpc:
      target: 127.0.0.1:1
      method: a.B/C
      message: {}
      metadata:
        x-client-key: plain-words
        x-signing-key: sk_live_4eC39HqLyjWDarjtT1zdp7dc
        authorization: "Bearer \${steps.e.capture.t}"
`,
    "f.yaml",
    { env: (name) => name },
  );
  assert.deepEqual(problems, []);
  const inputs = secretInputs(flow!);
  assert.deepEqual([...inputs.written!].sort(), [
    "idempotency-key\0<string>",
    "x-client-key\0plain-words",
    "x-request-key\0order-7",
  ]);
  // Typed under a credential header, a random key: secret, as in an HTTP request.
  assert.deepEqual([...inputs.literals].sort(), [
    "lit-sse-key",
    "sk_live_4eC39HqLyjWDarjtT1zdp7dc",
    "typed-ws-pass",
  ]);
  // What an expression brings there is secret from the start, not only once it is sent.
  assert.deepEqual([...inputs.env].sort(), ["SSE_TOKEN", "WS_SID"]);
  assert.deepEqual([...inputs.captures], ["e\0t"]);
  assert.ok(inputs.clear!.has("trace-text") && inputs.clear!.has("order-7"));
});

Deno.test("a request registers no written text by its header's name, but what else it sends", () => {
  const written = new Set(["idempotency-key\0<string>", "x-client-key\0plain-words"]);
  const found: string[] = [];
  secretsInRequest(
    {
      url: "http://x.test/orders",
      headers: [
        ["Idempotency-Key", "<string>"],
        ["x-client-key", "plain-words"],
        // The same header with another value (a redirect's credentials, an auth's header): secret.
        ["X-Client-Key", "from-elsewhere"],
        ["authorization", "Bearer tok-1"],
      ],
    },
    (value) => void found.push(value),
    written,
  );
  assert.deepEqual(found, ["from-elsewhere", "Bearer tok-1"]);
  // Without the flow's written texts (a library caller), every secret-looking header is secret.
  const all: string[] = [];
  secretsInRequest(
    { url: "http://x.test/", headers: [["Idempotency-Key", "<string>"]] },
    (v) => void all.push(v),
  );
  assert.deepEqual(all, ["<string>"]);
});

Deno.test("a var the flow writes as a literal is its own text under a secret-looking header", () => {
  const { flow, problems } = loadFlow(
    `name: f
vars:
  reqKey: order-7
  spellB: spell-b
  base: batch
  chained: "\${vars.base}-42"
  count: 7
  upstream: "\${ENV.UPSTREAM}"
  made: "k-\${RANDOM.HEX_8}"
  typed: typed-pass
  shared: shared-text
  sharedBase: part
  sharedChain: "\${vars.sharedBase}-1"
  signing: sk_live_4eC39HqLyjWDarjtT1zdp7dc
  order: {ref: order-9}
  wsKey: ws-own
  cookieVal: sid-own
steps:
  - name: s
    request:
      method: POST
      url: "http://x.test/orders"
      headers:
        X-Request-Key: "\${vars.reqKey}"
        Idempotency-Key: "\${spellB}"
        X-Batch-Key: "\${vars.chained}"
        X-Count-Key: "n-\${count}"
        X-Upstream-Key: "\${vars.upstream}"
        X-Made-Key: "\${vars.made}"
        X-Auth-Token: "\${vars.typed}"
        X-Shared-Key: "\${vars.shared}"
        Authorization: "Bearer \${vars.shared} \${vars.sharedBase}"
        X-Chain-Key: "\${vars.sharedChain}"
        X-Signing-Key: "\${vars.signing}"
        X-Order-Key: "\${vars.order.ref}"
        Cookie: "sid=\${vars.cookieVal}"
  - name: w
    websocket:
      url: ws://x.test/socket
      headers: { X-Client-Key: "\${vars.wsKey}" }
`,
    "f.yaml",
    { env: (name) => name },
  );
  assert.deepEqual(problems, []);
  const inputs = secretInputs(flow!);
  assert.deepEqual([...inputs.written!].sort(), [
    "idempotency-key\0spell-b",
    "x-batch-key\0batch-42",
    "x-client-key\0ws-own",
    "x-count-key\0n-7",
    "x-request-key\0order-7",
  ]);
  assert.deepEqual(
    [...inputs.ownVars!].sort(),
    [["base", "batch"], ["chained", "batch-42"], ["count", "7"], ["reqKey", "order-7"], [
      "spellB",
      "spell-b",
    ], ["wsKey", "ws-own"]],
  );
  // An environment variable, a random value, a credential header, a var (or a var it is made
  // of) also sent as a credential, a key-shaped literal, a map's field, a cookie.
  assert.deepEqual([...inputs.vars].sort(), [
    "cookieVal",
    "made",
    "order",
    "shared",
    "sharedBase",
    "sharedChain",
    "signing",
    "typed",
    "upstream",
  ]);
  for (const text of ["order-7", "spell-b", "batch-42", "ws-own"]) {
    assert.ok(inputs.clear!.has(text), text);
  }
});

Deno.test("a cookie written beside the session an expression brings is the flow's own text", () => {
  const { flow, problems } = loadFlow(
    `name: f
steps:
  - name: s
    request:
      url: "http://x.test/"
      headers:
        cookie: "theme=dark; _pk_id.1.1fff=0f2c.1732; _hj=eyJpZCI6ImFiYyJ9Qx; sid=\${ENV.SID}"
  - name: t
    request:
      url: "http://x.test/"
      headers: { cookie: "sid=typed-sid" }
`,
    "f.yaml",
    { env: (name) => name },
  );
  assert.deepEqual(problems, []);
  const inputs = secretInputs(flow!);
  assert.deepEqual([...inputs.written!].sort(), [
    "cookie\0_pk_id.1.1fff=0f2c.1732",
    "cookie\0theme=dark",
  ]);
  // A cookie header written whole is what the user typed; the session comes from the environment.
  assert.deepEqual([...inputs.literals], ["sid=typed-sid"]);
  assert.deepEqual([...inputs.env], ["SID"]);
  // Sent: the session is registered, the flow's own cookies and the header whole are not.
  const found: string[] = [];
  const cookie = "theme=dark; _pk_id.1.1fff=0f2c.1732; _hj=eyJpZCI6ImFiYyJ9Qx; sid=s-Wq83Lz";
  secretsInRequest(
    { url: "http://x.test/", headers: [["Cookie", cookie]] },
    (v) => void found.push(v),
    inputs.written,
  );
  assert.deepEqual(found, ["eyJpZCI6ImFiYyJ9Qx", "s-Wq83Lz"]);
});
