/**
 * The splitters of `convert curl`: every quoting form bash and cmd have as
 * browsers and docs write them, errors with their line and column, and time
 * that grows with the text, not faster.
 */
import assert from "node:assert/strict";
import { assertLinear } from "../support/timing.ts";
import { UsageError } from "../../lib/model/errors.ts";
import { isCmd, splitCmd } from "../../lib/convert/curl_cmd.ts";
import { ENV_MARKER, splitBash } from "../../lib/convert/curl_shell.ts";

const bash = (text: string, env: string[] = []) => splitBash(text, env).map((c) => c.words);
const cmd = (text: string, env: string[] = []) => splitCmd(text, env).map((c) => c.words);

Deno.test("bash: single quotes keep everything, '\\'' puts a quote in", () => {
  assert.deepEqual(bash(`curl 'a b $X \\ "c"' 'It'\\''s'`), [["curl", 'a b $X \\ "c"', "It's"]]);
});

Deno.test('bash: double quotes escape only $ ` " \\ and a newline', () => {
  assert.deepEqual(bash('curl "a \\"b\\" \\$c \\\\ \\` \\n \\x"'), [[
    "curl",
    'a "b" $c \\ ` \\n \\x',
  ]]);
  assert.deepEqual(bash('curl "one\\\ntwo"'), [["curl", "onetwo"]]);
});

Deno.test("bash: $'…' reads C escapes as bash does", () => {
  const [[, word]] = bash(
    "curl $'\\n\\t\\r\\\\\\'\\\"\\x41\\u00e9\\U0001F600\\101\\cA\\e\\q\\u0021'",
  );
  assert.equal(word, "\n\t\r\\'\"A\u00e9\u{1F600}A\x01\x1b\\q!");
});

Deno.test("bash: unquoted backslashes, continuations, comments and separators", () => {
  assert.deepEqual(
    bash(
      "curl a\\ b ab\\\ncd \\\n  -H x # a comment 'unclosed\nnext a#b; c && d || e | f & g\r\ncurl 'x' \\\r\n -v",
    ),
    [
      ["curl", "a b", "abcd", "-H", "x"],
      ["next", "a#b"],
      ["c"],
      ["d"],
      ["e"],
      ["f"],
      ["g"],
      ["curl", "x", "-v"],
    ],
  );
});

Deno.test("bash: $NAME and ${NAME} become markers; $(…) stays text with a note", () => {
  const env: string[] = [];
  const [c] = splitBash('curl "Bearer $TOKEN" ${HOST}/x "$(date)" $1', env);
  assert.deepEqual(env, ["TOKEN", "HOST"]);
  const marker = (i: number) => `zqzenv${i}zqz`;
  assert.deepEqual(c.words, ["curl", `Bearer ${marker(0)}`, `${marker(1)}/x`, "$(date)", "$1"]);
  assert.match(c.notes[0], /A shell expansion at line 1, column \d+ \("\$\(date\)/);
  assert.ok(new RegExp(ENV_MARKER.source).test(c.words[1]));
});

Deno.test("bash: a quote left open is one error with its line and column", () => {
  const cases: [string, RegExp][] = [
    ["curl a \\\n  -H 'x: y", /^Unterminated single quote at line 2, column 6\.$/],
    ['curl "abc', /^Unterminated double quote at line 1, column 6\.$/],
    ["\n\ncurl $'abc", /^Unterminated \$'…' quote at line 3, column 6\.$/],
  ];
  for (const [text, message] of cases) {
    assert.throws(() => splitBash(text, []), (e) => {
      assert.ok(e instanceof UsageError && e.code === "bad-curl");
      assert.match(e.message, message);
      return true;
    });
  }
});

Deno.test("bash: a here-document or here-string is the command's standard input", () => {
  const stdin = (text: string, env: string[] = []) =>
    splitBash(text, env).map((c) => [c.words, c.stdin ?? null, c.notes]);
  // Quoted delimiter: the lines as written; the next command after the end line.
  assert.deepEqual(stdin('curl -d @- <<\'EOF\' x.test\n{"a": "$X # y"}\nEOF\ncurl b.test'), [
    [["curl", "-d", "@-", "x.test"], '{"a": "$X # y"}\n', []],
    [["curl", "b.test"], null, []],
  ]);
  // Unquoted: $NAME becomes a marker, \\ \$ \` and \-newline as bash reads them.
  const env: string[] = [];
  const [[, text]] = stdin("curl -d @- <<EOF\nu=$USER \\$5 \\\\ \\q a\\\nb\nEOF\n", env);
  assert.equal(String(text).replace(ENV_MARKER, "<$1>"), "u=<0> $5 \\ \\q ab\n");
  assert.deepEqual(env, ["USER"]);
  // <<- removes leading tabs, from the end line too; a pipe after the delimiter is its own command.
  assert.deepEqual(stdin("curl -d @- <<-END | jq .\n\t\tx\n\tEND\n"), [
    [["curl", "-d", "@-"], "x\n", []],
    [["jq", "."], null, []],
  ]);
  // Here-strings get a line break; the last redirection wins, as in bash.
  assert.deepEqual(stdin("curl --json @- <<< '{\"a\":1}'"), [[
    ["curl", "--json", "@-"],
    '{"a":1}\n',
    [],
  ]]);
  assert.deepEqual(stdin("curl -d @- <<A <<B\na\nA\nb\nB\n")[0][1], "b\n");
  // Left open: the rest of the input, with a note; no word: a note.
  const [[, rest, notes]] = stdin("curl -d @- <<EOF\nx\ny");
  assert.equal(rest, "x\ny\n");
  assert.match(String(notes), /opened at line 1 has no "EOF" line/);
  assert.match(String(stdin("curl x.test <<")[0][2]), /names no word/);
});

Deno.test("bash: a | (or |&, or | then a line break) joins a command to the one before it", () => {
  const from = (text: string) => splitBash(text, []).map((c) => c.pipedFrom?.words[0] ?? null);
  assert.deepEqual(from("echo a | curl x"), [null, "echo"]);
  assert.deepEqual(from("echo a |& curl x"), [null, "echo"]);
  assert.deepEqual(from("echo a |\n  curl x"), [null, "echo"]);
  assert.deepEqual(from("echo a || curl x"), [null, null]);
  assert.deepEqual(from("echo a | curl x\ncurl y"), [null, "echo", null]);
  assert.deepEqual(from("echo a; curl x && curl y"), [null, null, null]);
});

Deno.test('cmd: Chrome\'s ^ escapes, ^" quoting, ^\\^" quotes and ^-newline-newline', () => {
  const text = 'curl ^"https://a.test/x?a=1^&b=^%^5B^" ^\n  -H ^"x: ^\\^"q^\\^" ^{^!^}^" ^\n' +
    '  --data-raw ^"l1^\n\nl2	tab^"';
  assert.deepEqual(cmd(text), [[
    "curl",
    "https://a.test/x?a=1&b=%5B",
    "-H",
    'x: "q" {!}',
    "--data-raw",
    "l1\nl2\ttab",
  ]]);
});

Deno.test('cmd: the runtime\'s quotes: "" and \\" inside, backslashes before a quote', () => {
  assert.deepEqual(cmd('curl "{""a"":""50"%"""}" "a\\\\b" "c\\\\" x\\"y "d\\\\\\"e"'), [[
    "curl",
    '{"a":"50%"}',
    "a\\\\b",
    "c\\",
    'x"y',
    'd\\"e',
  ]]);
});

Deno.test("cmd: %NAME% is a variable, %^NAME% is not; & and && end a command", () => {
  const env: string[] = [];
  const words = cmd("curl %TOKEN% 100%^OK & curl b && curl c | more", env);
  assert.deepEqual(env, ["TOKEN"]);
  assert.deepEqual(words, [["curl", "zqzenv0zqz", "100%OK"], ["curl", "b"], ["curl", "c"], [
    "more",
  ]]);
});

Deno.test("cmd: a quote open at the end of its line is one error with its line and column", () => {
  assert.throws(() => splitCmd('curl "a" ^\n  -H "x: y\n', []), (e) => {
    assert.ok(e instanceof UsageError && e.code === "bad-curl");
    assert.equal(e.message, "Unterminated double quote at line 2, column 6.");
    return true;
  });
});

Deno.test("isCmd tells the shells apart", () => {
  assert.ok(isCmd('curl ^"https://a.test/^"'));
  assert.ok(isCmd('curl "https://a.test/" ^\n -H "a: b"'));
  assert.ok(isCmd('curl "a" -d "{""k"":1}"'));
  assert.ok(isCmd('curl.exe "https://a.test/"'));
  assert.ok(!isCmd("curl 'https://a.test/' \\\n  -H 'a: ^\"b'"));
  assert.ok(!isCmd('curl "https://a.test/" -H "a: b"'));
});

Deno.test("splitting takes time in proportion to the text", () => {
  // One command of many words: a bounded number of commands, an unbounded text.
  const line = "-H 'a: b' -H \"a: \\\"b\\\"\" --data-raw $'x\\ny' ";
  for (
    const [split, unit] of [
      [(t: string) => splitBash(t, []), line],
      // Here-documents: each line read once, its escapes and names once.
      [(t: string) => splitBash(`curl -d @- <<EOF\n${t}EOF\n`, []), "a=$B \\$c \\\\ d\n"],
      [(t: string) => splitCmd(t, []), '-H ^"a: ^\\^"b^\\^"^" "x ""y"" z" ^\n '],
    ] as const
  ) {
    // Four times the text: well under sixteen times the time (quadratic), measured as ratios.
    const texts = new Map([1000, 4000].map((n) => [n, unit.repeat(n)]));
    assertLinear(`splitting ${JSON.stringify(unit)}`, (n) => split(texts.get(n)!), 1000, 4);
  }
});
