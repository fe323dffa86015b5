/**
 * `convertCurl`: commands the docs print with no URL. JSON-RPC pages show each method as
 * `curl -X POST --data '{"jsonrpc":"2.0",…}'` and say in a sentence where to send it ("add
 * `127.0.0.1:8545` as the last argument", "replace with your node's address"): the text was
 * refused ("No curl command in the input sends an http(s) request"). Each such command is a
 * step now, sent to the one local address the prose names, else to the one URL every other
 * command of the text sends to, else to `$SERVER_URL`, which the summary asks for. Run
 * against a JSON-RPC server started here.
 */
import assert from "node:assert/strict";
import { convertCurl } from "../../lib/convert/curl.ts";
import { withCurlFlow } from "../support/curl_run.ts";

const CALLS = [
  `curl -X POST --data '{"jsonrpc":"2.0","method":"net_version","params":[],"id":67}'`,
  `curl -H "Content-Type: application/json" -d '{"jsonrpc":"2.0","method":"eth_accounts","params":[],"id":1}'`,
  `curl --request POST \\\n  --header 'content-type: application/json' \\\n  --data-raw '{"jsonrpc":"2.0","method":"net_version","params":[],"id":2}'`,
];

/** Every way a page says where the commands go, with ADDRESS for the server's. */
const SAYINGS: Record<string, string> = {
  "inline code, no scheme": "Add `ADDRESS` as the last argument to each command.",
  "a URL in a sentence": "The node listens on http://ADDRESS by default.",
  "a URL with a trailing period": "Replace it with your node's address, e.g. http://ADDRESS.",
  "one server spelled two ways": "Add `ADDRESS` at the end (the node's http://localhost:PORT).",
};

/** A page: a sentence, then each call in its fence, answers pasted under them. */
function page(saying: string, address: string): string {
  const fences = CALLS.map((c) =>
    `\`\`\`bash\n${c}\n\`\`\`\n\n\`\`\`json\n{"id":1, "jsonrpc": "2.0", "result": "1"}\n\`\`\``
  );
  const port = address.split(":")[1];
  const said = saying.replace("ADDRESS", address).replace("PORT", port);
  return [`# JSON-RPC`, "", said, "", ...fences].join("\n\n");
}

/** A JSON-RPC server: answers each call at `/`, and 404 elsewhere. */
function rpcServer(seen: string[]) {
  return Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    if (new URL(req.url).pathname !== "/") return new Response("not here", { status: 404 });
    const call = JSON.parse(await req.text());
    seen.push(call.method);
    return Response.json({ jsonrpc: "2.0", id: call.id, result: "1" });
  });
}

Deno.test("a page naming the address: each command is a step sent there", () => {
  for (const [how, saying] of Object.entries(SAYINGS)) {
    const { yaml, summary } = convertCurl(page(saying, "127.0.0.1:8545"));
    assert.equal(summary.steps, 3, `${how}: ${yaml}`);
    assert.deepEqual(summary.env, [], how);
    assert.match(yaml, /base_url: \$\{ENV\.BASE_URL:-http:\/\/127\.0\.0\.1:8545\}/, how);
    assert.match(summary.notes.join("\n"), /no URL: it is sent to http:\/\/127\.0\.0\.1:8545/);
  }
});

Deno.test("a page naming no address: the one URL the other commands use, else a variable", () => {
  const withOne = `curl http://127.0.0.1:8545/rpc -d '{"id":0}'\n\n${CALLS[0]}\n`;
  const shared = convertCurl(withOne);
  assert.equal(shared.summary.steps, 2, shared.yaml);
  assert.doesNotMatch(shared.yaml, /base_url_2/, shared.yaml);
  assert.equal((shared.yaml.match(/url: \$\{vars\.base_url\}\/rpc/g) ?? []).length, 2);
  const asked = convertCurl(`Replace with your node's address.\n\n${CALLS[0]}\n${CALLS[1]}\n`);
  assert.equal(asked.summary.steps, 2, asked.yaml);
  assert.deepEqual(asked.summary.env, ["SERVER_URL"]);
  assert.match(asked.yaml, /base_url: \$\{ENV\.SERVER_URL\}/);
});

Deno.test("a command with no URL that sends nothing is still refused", () => {
  assert.throws(() => convertCurl("curl --version\n"), /No curl command/);
  // Two local addresses: the text does not say which, so the variable is asked for.
  const two = convertCurl(`Use localhost:1 or localhost:2.\n\n${CALLS[0]}\n`);
  assert.deepEqual(two.summary.env, ["SERVER_URL"]);
});

Deno.test("run against a server: every method the page shows reaches it", async () => {
  const seen: string[] = [];
  await using s = rpcServer(seen);
  for (const saying of Object.values(SAYINGS)) {
    await withCurlFlow(page(saying, `127.0.0.1:${s.addr.port}`), async ({ runFlow }) => {
      const run = await runFlow();
      assert.equal(run.code, 0, `${run.stdout}${run.stderr}`);
      assert.match(run.stdout, /3 steps: 3 passed/);
    }, { docs: "rpc.md" });
  }
  await withCurlFlow(`${CALLS[0]}\n`, async ({ runFlow, converted }) => {
    assert.match(converted.stderr, /SERVER_URL/);
    const run = await runFlow({ SERVER_URL: `http://127.0.0.1:${s.addr.port}` });
    assert.equal(run.code, 0, `${run.stdout}${run.stderr}`);
  });
  assert.deepEqual(seen.length, 3 * Object.keys(SAYINGS).length + 1);
});
