/**
 * `convertCurl`: an error answer that reports a code and its message beside
 * a few plain facts. A key-value store's API page tries a create-only write
 * on a key that exists, then a compare-and-swap with the wrong old value,
 * and prints what each answered, `{"errorCode": 105, "message": "Key already
 * exists", "cause": "/k", "index": 12}`, with no status line: the server
 * refuses both (412). The error-object rule wanted every member from its
 * list of error words, and `cause` and `index` are not, so each step checked
 * a status below 400 and the documented refusal failed the run (4 of 46 such
 * steps on one page). An answer holding a non-zero error code (`errorCode`,
 * `error_code`, `errno`) and a message in words, every member a plain value
 * (no object, no list: data would be one), is an error report too: the step
 * checks a refusal. A code of 0 and an answer carrying data keep below 400.
 */
import assert from "node:assert/strict";
import { convertCurl } from "../../lib/convert/curl.ts";
import { withCurlFlow } from "../support/curl_run.ts";

/** The steps' `assert` blocks' status checks, in order. */
function statuses(yaml: string): string[] {
  return [...yaml.matchAll(/\n {6}status: (.*)\n/g)].map((m) => m[1]);
}

const PAGE = [
  "Write a key:",
  "",
  "```sh",
  "curl http://HOST/v1/kv/k -XPUT -d value=one",
  "```",
  "",
  "Writing it again as a create fails as expected:",
  "",
  "```sh",
  "curl http://HOST/v1/kv/k?create=true -XPUT -d value=two",
  "```",
  "",
  "```json",
  "{",
  '    "cause": "/k",',
  '    "errorCode": 105,',
  '    "index": 12,',
  '    "message": "Key already exists"',
  "}",
  "```",
  "",
  "A swap with the wrong old value:",
  "",
  "```sh",
  "curl http://HOST/v1/kv/k?old=two -XPUT -d value=three",
  "```",
  "",
  "```json",
  '{"error_code": 101, "message": "Compare failed", "cause": "[two != one]"}',
  "```",
  "",
].join("\n");

Deno.test("an error code with its message among plain facts checks a refusal", () => {
  const { yaml } = convertCurl(PAGE.replaceAll("HOST", "a.test"));
  assert.deepEqual(
    statuses(yaml),
    ["{ lt: 400 }", "{ gte: 400, lt: 500 }", "{ gte: 400, lt: 500 }"],
    yaml,
  );
});

Deno.test("a zero code, a code without words or an answer with data stays below 400", () => {
  const answers = [
    '{"errorCode": 0, "message": "done", "index": 4}',
    '{"errno": 0, "msg": "ok"}',
    '{"errorCode": 105, "index": 12}',
    '{"errorCode": 3, "message": "partly done", "items": [1, 2]}',
    '{"error_code": 7, "message": "see node", "node": {"key": "/k"}}',
  ];
  for (const answer of answers) {
    const text = `curl http://a.test/v1/kv/k\n\n${answer}\n`;
    assert.deepEqual(statuses(convertCurl(text).yaml), ["{ lt: 400 }"], answer);
  }
});

Deno.test("an error a conditional sentence ending in a period introduces is another case's", () => {
  // The page reads a key written with a time to live: "If the time has run out, the key is gone,
  // and you get a 100." then that error; run at once, the read answers the key (200).
  const answer = '{"cause": "/k", "errorCode": 100, "index": 6, "message": "Key not found"}';
  const said = "If the time to live has run out, the key is gone, and you are answered a 100.";
  const plain = `curl http://a.test/v1/kv/k\n\n${said}\n\n${answer}\n`;
  const fenced =
    `\`\`\`sh\ncurl http://a.test/v1/kv/k\n\`\`\`\n\n${said}\n\n\`\`\`json\n${answer}\n\`\`\`\n`;
  for (const text of [plain, fenced]) {
    assert.deepEqual(statuses(convertCurl(text).yaml), ["{ lt: 400 }"], text);
  }
  // A line that tells first what the command does keeps the answer the command's.
  const told = "This compares the old value given. If they are equal, the value changes.";
  const own = `curl http://a.test/v1/kv/k?old=two -XPUT -d value=3\n\n${told}\n\n${answer}\n`;
  assert.deepEqual(statuses(convertCurl(own).yaml), ["{ gte: 400, lt: 500 }"]);
});

Deno.test("run against a server: the refusals the page prints pass, as printed", async () => {
  const store = new Map<string, string>();
  await using s = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const url = new URL(req.url);
    const value = new URLSearchParams(await req.text()).get("value") ?? "";
    const had = store.get(url.pathname);
    const old = url.searchParams.get("old");
    if (url.searchParams.has("create") && had !== undefined) {
      return Response.json({ errorCode: 105, message: "Key already exists" }, { status: 412 });
    }
    if (old !== null && old !== had) {
      return Response.json({ errorCode: 101, message: "Compare failed" }, { status: 412 });
    }
    store.set(url.pathname, value);
    return Response.json({ action: "set", node: { key: url.pathname, value } }, {
      status: had === undefined ? 201 : 200,
    });
  });
  const page = PAGE.replaceAll("HOST", `127.0.0.1:${s.addr.port}`);
  await withCurlFlow(page, async ({ runFlow }) => {
    const run = await runFlow({});
    assert.equal(run.code, 0, `${run.stdout}${run.stderr}`);
  });
});
