/**
 * `convert curl`: a command repeated by a `for` loop over words the text
 * writes. Docs fill a server with `for i in 1 2 3; do curl -X PUT …/items/$i;
 * done` or `for name in alpha beta; do …; done`, on one line or with the
 * body on the lines between `do` and `done`, and `{1..5}` for a range. Read
 * as shell, `for` and `do` were commands of their own: the curl was no step,
 * and a text with nothing else was refused ("The input holds no curl
 * command"). The loop is run as bash runs it: one step per word, its
 * variable (`$i`, `${i}`) set to that word. A loop over anything the text
 * does not write (`$(…)`, `*`, `$LIST`), more than 20 runs, or a body of
 * more than one line keeps its reading. A curl in a `while` loop's body
 * (`… | while read id; do curl …/$id; done`, as a media server's scripts page
 * removes its disconnected clients) runs once per line the loop reads, which
 * no text tells: it is left out, and the summary says so rather than naming
 * it `do`.
 */
import assert from "node:assert/strict";
import { convertCurl } from "../../lib/convert/curl.ts";

/** The URLs of the steps, in order. */
const urls = (yaml: string) =>
  [...yaml.matchAll(/url: \$\{vars\.base_url\}(\S*)/g)].map((m) => m[1]);

Deno.test("a for loop over written words is one step per word", () => {
  const forms = [
    "for i in 1 2 3; do curl -s -X PUT http://a.test/items/$i -d 'n=1'; done",
    "for i in 1 2 3\ndo\n  curl -s -X PUT http://a.test/items/${i} -d 'n=1'\ndone",
    "for i in 1 2 3; do\n  curl -s -X PUT \"http://a.test/items/$i\" -d 'n=1'\ndone",
    "for i in {1..3}; do curl -s -X PUT http://a.test/items/$i -d 'n=1'; done",
  ];
  for (const text of forms) {
    const { yaml, summary } = convertCurl(`${text}\ncurl -s http://a.test/items\n`);
    assert.equal(summary.steps, 4, `${text}\n${yaml}`);
    assert.deepEqual(urls(yaml), ["/items/1", "/items/2", "/items/3", "/items"], yaml);
    assert.equal(summary.env.length, 0, `${text}: ${summary.env}`);
  }
  const words = convertCurl(
    'for name in alpha beta; do curl -X POST http://a.test/tags -d "name=$name"; done\n',
  );
  assert.equal(words.summary.steps, 2, words.yaml);
  assert.match(words.yaml, /name: alpha[\s\S]*name: beta/, words.yaml);
});

Deno.test("a loop over what the text does not write keeps its reading", () => {
  for (
    const text of [
      "for f in *.json; do curl -X POST http://a.test/up -d @$f; done\n",
      "for i in $(seq 1 3); do curl http://a.test/items/$i; done\n",
      "for i in {1..50}; do curl http://a.test/items/$i; done\n",
    ]
  ) {
    assert.throws(() => convertCurl(text), /no curl command/, text);
  }
});

Deno.test("a curl in a while loop's body is named as left out", () => {
  const text = [
    "curl -s http://a.test/clients | jq -r '.[].id' | while read id; do curl -s -X DELETE http://a.test/clients/$id; done",
    "curl -s http://a.test/clients",
  ].join("\n");
  const { summary } = convertCurl(text);
  assert.equal(summary.steps, 2);
  assert.ok(
    summary.skipped.some((s) => /do curl \(a loop's body: left out\)/.test(s)),
    summary.skipped.join("; "),
  );
  assert.equal(summary.env.length, 0, summary.env.join());
});
