/**
 * `convert curl`: a file the text itself writes, then sends. Docs build a
 * body in a file with a here-document and send it (a spam filter's protocol
 * page: `cat > "$TMPDIR/request.txt" <<EOF` … `EOF`, then
 * `--data-binary "@$TMPDIR/request.txt"`; many API guides:
 * `cat > payload.json <<EOF`, then `-d @payload.json`). The converter read
 * only files on disk: the flow sent an empty placeholder "for you to put
 * your file at", though the text says what the file holds, and the server
 * got no body. A file a command of the text writes from its standard input
 * (`cat > F`, `cat >F`, `cat <<EOF > F`, `tee F`, `cat >> F` appending) is
 * that text when a later command sends it (`-d @F`, `--data-binary @F`,
 * `--json @F`, `--data-urlencode name@F`), as curl reads it (`-d` drops its
 * line breaks). Run against a server started here, which checks the body.
 */
import assert from "node:assert/strict";
import { withCurlFlow } from "../support/curl_run.ts";

const BODY = '{"name": "tea", "qty": 2}';

/** The ways a text writes the file, then sends it. */
function texts(origin: string): Record<string, string[]> {
  const send = (opt: string, path = "payload.json") =>
    `curl -X POST ${origin}/orders -H 'Content-Type: application/json' ${opt} @${path}`;
  return {
    "cat > F, -d @F": ["cat > payload.json <<EOF", BODY, "EOF", send("-d")],
    "cat <<'EOF' > F, --data-binary @F": [
      "cat <<'EOF' > payload.json",
      BODY,
      "EOF",
      send("--data-binary"),
    ],
    "cat >F, --json @F": ["cat >payload.json <<-EOF", `\t${BODY}`, "\tEOF", send("--json")],
    "tee F, --data @F": ["tee payload.json <<EOF >/dev/null", BODY, "EOF", send("--data")],
    "cat >> F twice": [
      "cat > payload.json <<EOF",
      '{"name": "tea",',
      "EOF",
      "cat >> payload.json <<EOF",
      ' "qty": 2}',
      "EOF",
      send("-d"),
    ],
    "a path under a folder": [
      "mkdir -p body",
      'cat > "body/order.json" <<EOF',
      BODY,
      "EOF",
      send("--data-binary", '"body/order.json"'),
    ],
  };
}

Deno.test("run against a server: a file the text writes is the body it sends", async () => {
  const seen: string[] = [];
  await using s = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const text = await req.text();
    try {
      const body = JSON.parse(text);
      seen.push(`${body.name} ${body.qty}`);
      return Response.json({ id: 1 }, { status: 201 });
    } catch {
      seen.push(`unread ${JSON.stringify(text)}`);
      return Response.json({ error: "no order" }, { status: 400 });
    }
  });
  const all = texts(`http://127.0.0.1:${s.addr.port}`);
  for (const [shape, lines] of Object.entries(all)) {
    await withCurlFlow(`${lines.join("\n")}\n`, async ({ runFlow, converted, readFlow }) => {
      assert.doesNotMatch(converted.stderr, /placeholder/, `${shape}\n${converted.stderr}`);
      const run = await runFlow();
      assert.equal(run.code, 0, `${shape}\n${await readFlow()}\n${run.stdout}${run.stderr}`);
    });
  }
  assert.deepEqual(seen, Object.keys(all).map(() => "tea 2"));
});

Deno.test("a file the text writes after the command, or never, is still the reader's", async () => {
  const text = [
    "curl -X POST http://127.0.0.1:9/orders -d @payload.json",
    "cat > payload.json <<EOF",
    BODY,
    "EOF",
    "",
  ].join("\n");
  await withCurlFlow(text, ({ converted }) => {
    assert.match(converted.stderr, /placeholder/, converted.stderr);
    return Promise.resolve();
  });
});
